import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as linkPageHandler } from '#functions/pages/link-page.ts';
import { handler as submitLinkPage } from '#functions/pages/submit-link-page.ts';
import type { PaymentLink } from '#shared/data/payment-link.ts';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { PaymentLinkIsInvalid } from '#shared/errors/payment-links.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { attemptCookie, attemptTokenFrom } from '#shared/http/link-attempt-cookie.ts';
import { payThroughLink } from '#shared/operations/payment-links.ts';
import { linkPage, linkUnavailablePage } from '#shared/pages/link-page.ts';
import { proxyEvent, testLambdaContext } from '#test/support/proxy-event.ts';

// The provider's side of paying is the payment-link module's; here only what the page does with it.
vi.mock(import('#shared/operations/payment-links.ts'), async (original) => ({
  ...(await original()),
  payThroughLink: vi.fn(),
}));

process.env.TABLE_NAME = 'unit';
process.env.PUBLIC_BASE_URL = 'https://pay.example';
const documentClient = mockClient(DynamoDBDocumentClient);

const linkId = '5d1c7f0e-2b9a-4c1d-8e3f-6a7b8c9d0e1f';
const paymentId = '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11';
const businessId = 'b0b0b0b0-0000-4000-8000-000000000001';
const token = '00112233445566778899aabbccddeeff';
const context = { language: 'fr' as const, languagePinned: false, baseUrl: 'https://pay.example' };

function link(overrides: Partial<PaymentLink> = {}): PaymentLink {
  return {
    id: linkId,
    businessId,
    storeId: 's',
    storeName: 'Boutique Awa',
    title: 'Deux pagnes wax',
    amountCents: 1500000,
    currency: 'XOF',
    allowMultiplePayments: false,
    paymentsCount: 0,
    active: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function payment(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  const back = `https://pay.example/pl/${linkId}?payment=${paymentId}`;
  return {
    id: paymentId,
    businessId,
    storeId: 's',
    storeName: 'Boutique Awa',
    reference: `pl-${paymentId}`,
    type: 'redirect',
    paymentMethod: 'orange',
    collectionMethod: 'orange',
    payerPhone: '+2250700000002',
    amountCents: 1500000,
    currency: 'XOF',
    successUrl: back,
    errorUrl: back,
    forceProviderDirect: false,
    paymentLinkId: linkId,
    paymentLinkSingleUse: true,
    redirectUrl: `https://pay.example/payment/${paymentId}`,
    providerReference: 'sbx_x',
    status: 'pending',
    errorReason: null,
    transaction: null,
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const successful = (overrides: Partial<PaymentRequest> = {}) =>
  payment({
    status: 'success',
    transaction: {
      id: '7e57a11d-0000-4000-8000-00000000c0de',
      amount: { amount: 1500000, currency: 'XOF' },
      fees: { amount: 15000, currency: 'XOF' },
      status: 'success',
      counterpartLabel: '+2250700000001',
      counterpartIdentifier: '+2250700000001',
      description: 'Payment',
      executedAt: '2025-01-01 00:00:00',
    },
    ...overrides,
  });

/** Spaces of any kind as plain spaces: amounts carry Intl's no-break spaces. */
const plain = (text: string) => text.replace(/\s+/g, ' ');

describe('the link page', () => {
  it('shows the title, the store, the amount the local way, the five providers, the phone and the pay button', () => {
    const page = plain(linkPage({ link: link() }, context));
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain('<h1 class="store">Boutique Awa</h1>');
    expect(page).toContain('<p class="purpose">Deux pagnes wax</p>');
    expect(page).toContain('<p class="amount">15 000 F CFA</p>');
    for (const code of ['orange', 'wave', 'mtn', 'moov', 'djamo']) expect(page).toContain(`value="${code}"`);
    // The link asks for no provider: the first offered is chosen, the others one tap away, so Pay
    // is in the first screen and a payer who does not change it can pay at once.
    expect(page.match(/ checked/g)).toHaveLength(1);
    expect(page).toContain('value="orange" checked');
    expect(page).toContain('<details class="more-providers">');
    expect(page).toContain('name="payerPhone"');
    expect(page).toContain('>Payer 15 000 F CFA</button>');
    expect(page).toContain(`<form class="content" method="post" action="https://pay.example/pl/${linkId}"`);
    expect(page).toContain(`href="https://pay.example/pl/${linkId}?lang=en"`);
  });

  it('speaks English, and keeps a language chosen on the page in the form it posts', () => {
    const page = plain(linkPage({ link: link() }, { ...context, language: 'en', languagePinned: true }));
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('Payment method');
    expect(page).toContain('>Pay 15 000 F CFA</button>');
    expect(page).toContain(`action="https://pay.example/pl/${linkId}?lang=en"`);
  });

  it('shows an XSS attempt in the title or the store name as text, on every state of the page', () => {
    const hostile = link({
      title: '<script>alert(document.cookie)</script>',
      storeName: '"><img src=x onerror=alert(1)>',
    });
    const pages = [
      linkPage({ link: hostile }, context),
      linkPage({ link: { ...hostile, paidBy: paymentId } }, context),
      linkPage({ link: hostile, payment: successful({ storeName: hostile.storeName }) }, context),
      linkPage({ link: { ...hostile, paidBy: 'other' }, payment: payment({ status: 'error' }) }, context),
      linkUnavailablePage(hostile, context),
    ];
    for (const page of pages) {
      expect(page).not.toContain('<script>');
      expect(page).not.toContain('<img');
      expect(page).toContain('&lt;script&gt;alert(document.cookie)&lt;/script&gt;');
      expect(page).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    }
  });

  it('says a paid single-use link has been paid, with no form', () => {
    const french = linkPage({ link: link({ paidBy: paymentId, paymentsCount: 1 }) }, context);
    expect(french).toContain('Ce lien de paiement a déjà été payé');
    expect(french).not.toContain('<form');
    expect(french).not.toContain('name="paymentMethod"');
    const english = linkPage({ link: link({ paidBy: paymentId }) }, { ...context, language: 'en' });
    expect(english).toContain('This payment link has already been paid');
    expect(english).not.toContain('<form');
  });

  it('says a switched-off link is no longer active, in French and English, with no form', () => {
    for (const allowMultiplePayments of [false, true]) {
      const off = link({ active: false, allowMultiplePayments });
      const french = linkPage({ link: off }, context);
      expect(french).toContain('Ce lien de paiement n&#39;est plus actif');
      expect(french).toContain('Le marchand l&#39;a désactivé');
      expect(french).not.toContain('<form');
      expect(french).not.toContain('name="paymentMethod"');
      expect(french).not.toContain('déjà été payé');
      const english = linkPage({ link: off }, { ...context, language: 'en' });
      expect(english).toContain('This payment link is no longer active');
      expect(english).not.toContain('<form');
    }
  });

  it('keeps offering the form on a reusable link that has been paid', () => {
    const page = linkPage({ link: link({ allowMultiplePayments: true, paymentsCount: 3 }) }, context);
    expect(page).toContain('<form');
    expect(page).not.toContain('déjà été payé');
  });
});

describe("the link page showing the customer's payment", () => {
  it('confirms a successful payment with the amount and the transaction reference, and no form', () => {
    const page = plain(
      linkPage({ link: link({ paidBy: paymentId, paymentsCount: 1 }), payment: successful() }, context),
    );
    expect(page).toContain('Paiement réussi');
    expect(page).toContain('Votre paiement de 15 000 F CFA à Boutique Awa est confirmé.');
    expect(page).toContain('<dd class="receipt-reference">7E57-A11D</dd>');
    expect(page).toContain('Deux pagnes wax');
    expect(page).not.toContain('<form');
    // The link being paid is the good news here, not a reason to turn the customer away.
    expect(page).not.toContain('déjà été payé');
    // The way back to the merchant would be this very page.
    expect(page).not.toContain('Retour à la boutique');
    expect(page).toContain(`href="https://pay.example/pl/${linkId}?payment=${paymentId}&amp;lang=en"`);
  });

  it('shows a failure with its reason and offers the form again, as the customer filled it', () => {
    const page = plain(
      linkPage({ link: link(), payment: payment({ status: 'error', errorReason: 'declined' }) }, context),
    );
    expect(page).toMatch(
      /<p class="alert" role="alert"><strong>Échec du paiement\.<\/strong> Vous avez refusé le paiement sur votre téléphone\. Aucun montant n&#39;a été débité\./,
    );
    expect(page).toContain('<form');
    expect(page).toMatch(/value="orange" checked/);
    expect(page).toContain('value="07 00 00 00 02"');
    expect(page).toContain(`action="https://pay.example/pl/${linkId}"`);
  });

  it('shows a failure without the form when someone else has paid the link meanwhile', () => {
    const page = linkPage(
      {
        link: link({ paidBy: '11111111-1111-4111-8111-111111111111' }),
        payment: payment({ status: 'error', errorReason: 'insufficient_funds' }),
      },
      context,
    );
    expect(page).toContain('Échec du paiement');
    expect(page).toContain('Le solde du compte mobile money est insuffisant.');
    expect(page).toContain('Ce lien de paiement a déjà été payé');
    expect(page).not.toContain('<form');
  });

  it('shows a failure without the form, saying the link is no longer active, once it was switched off', () => {
    const page = linkPage(
      { link: link({ active: false }), payment: payment({ status: 'error', errorReason: 'declined' }) },
      context,
    );
    expect(page).toContain('Échec du paiement');
    expect(page).toContain('Ce lien de paiement n&#39;est plus actif');
    expect(page).not.toContain('<form');
  });

  it('says why a payment failed when someone else paid the link first', () => {
    const page = linkPage(
      {
        link: link({ paidBy: '11111111-1111-4111-8111-111111111111' }),
        payment: payment({ status: 'error', errorReason: 'E_PAYMENT_LINK_IS_INVALID' }),
      },
      { ...context, language: 'en' },
    );
    expect(page).toContain('Someone else paid this payment link in the meantime. No money was taken.');
  });

  it('waits for the confirmation, looking for it every 2 seconds in the background, then stops after a while', () => {
    const view = { link: link(), payment: payment() };
    const waiting = linkPage(view, context, { attempt: 0 });
    expect(waiting).toContain('En attente de confirmation');
    expect(waiting).not.toContain('<form');
    expect(waiting).toContain(
      `data-poll="https://pay.example/pl/${linkId}?payment=${paymentId}" data-attempt="0"`,
    );
    expect(waiting).toContain(`href="https://pay.example/pl/${linkId}?payment=${paymentId}&amp;attempt=1"`);
    const later = linkPage(view, context, { attempt: 90 });
    expect(later).not.toContain('data-poll=');
    expect(later).toContain(`href="https://pay.example/pl/${linkId}?payment=${paymentId}"`);
  });
});

describe('the page for a payment the link cannot take now', () => {
  it('explains that the link is paid or being paid, and offers to look again later', () => {
    const page = linkUnavailablePage(link(), context);
    expect(page).toContain('Ce lien est indisponible pour le moment');
    expect(page).toContain(
      'quelqu&#39;un d&#39;autre est en train de le payer. Réessayez dans quelques minutes.',
    );
    expect(page).toContain(`<a class="button" href="https://pay.example/pl/${linkId}">Réessayer</a>`);
    expect(page).not.toContain('<form');
    const english = linkUnavailablePage(link(), { ...context, language: 'en' });
    expect(english).toContain('someone else is paying it. Try again in a few minutes.');
  });

  it('says the link is paid when it is known to be', () => {
    const page = linkUnavailablePage(link({ paidBy: paymentId }), context);
    expect(page).toContain('Ce lien de paiement a déjà été payé');
    expect(page).not.toContain('Réessayer');
  });
});

describe('the attempt cookie', () => {
  it('is HttpOnly, SameSite=Lax, on the link page only, for the 10 minutes of a claim, Secure over https', () => {
    expect(attemptCookie(linkId, token, 'https://pay.example')).toBe(
      `pl_attempt=${token}; Path=/pl/${linkId}; Max-Age=600; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(attemptCookie(linkId, token, 'http://127.0.0.1:3000')).toBe(
      `pl_attempt=${token}; Path=/pl/${linkId}; Max-Age=600; HttpOnly; SameSite=Lax`,
    );
  });

  it('is scoped under the stage path when the service is reached at one', () => {
    expect(attemptCookie(linkId, token, 'https://abc.execute-api.eu-west-1.amazonaws.com/prod')).toContain(
      `Path=/prod/pl/${linkId};`,
    );
  });

  it('is read back among other cookies, and anything that is not a token is ignored', () => {
    expect(attemptTokenFrom(`a=1; pl_attempt=${token}; b=2`)).toBe(token);
    expect(attemptTokenFrom(`pl_attempt=${token}`)).toBe(token);
    expect(attemptTokenFrom(undefined)).toBeUndefined();
    expect(attemptTokenFrom('xpl_attempt=00112233445566778899aabbccddeeff')).toBeUndefined();
    expect(attemptTokenFrom('pl_attempt=x; y')).toBeUndefined();
    expect(attemptTokenFrom('pl_attempt="><script>00112233445566778899"')).toBeUndefined();
  });
});

function givenLink(overrides: Partial<PaymentLink> = {}, payments: PaymentRequest[] = []) {
  documentClient.on(GetCommand).resolves({});
  documentClient
    .on(GetCommand, { Key: { pk: `PLINK#${linkId}`, sk: 'PLINK' } })
    .resolves({ Item: { businessId } });
  documentClient
    .on(GetCommand, { Key: { pk: `BIZ#${businessId}`, sk: `PLINK#${linkId}` } })
    .resolves({ Item: { ...link(overrides) } });
  for (const request of payments) {
    documentClient
      .on(GetCommand, { Key: { pk: `PAYREQ#${request.id}`, sk: 'PAYREQ' } })
      .resolves({ Item: { ...request } });
  }
}

function event(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return proxyEvent({
    path: `/pl/${linkId}`,
    resource: '/pl/{id}',
    pathParameters: { id: linkId },
    ...overrides,
  });
}

const post = (body: string, headers: Record<string, string> = {}) =>
  event({
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

const lambdaContext = testLambdaContext;
type PageLambda = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const call = (lambda: PageLambda, e: APIGatewayProxyEvent) => lambda(e, lambdaContext);

const pay = vi.mocked(payThroughLink);
const valid = 'paymentMethod=orange&payerPhone=%2B225+07+00+00+00+01';

beforeEach(() => {
  documentClient.reset();
  pay.mockReset();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /pl/{id}', () => {
  it('answers the page with the hosted pages’ security headers', async () => {
    givenLink();
    const response = await call(linkPageHandler, event());
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'content-security-policy': expect.stringContaining("default-src 'none'"),
    });
    expect(response.body).toContain('Deux pagnes wax');
  });

  it('answers the friendly 404 page for an unknown link, and reads nothing for an id that cannot be one', async () => {
    givenLink();
    const unknown = await call(
      linkPageHandler,
      event({ pathParameters: { id: '11111111-1111-4111-8111-111111111111' } }),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('Paiement introuvable');
    documentClient.reset();
    const malformed = await call(linkPageHandler, event({ pathParameters: { id: '../PLINK' } }));
    expect(malformed.statusCode).toBe(404);
    expect(documentClient.calls()).toHaveLength(0);
  });

  it("shows a payment of this link, and nothing of a payment that is not this link's", async () => {
    const mine = successful();
    const foreign = successful({ id: '22222222-2222-4222-8222-222222222222', paymentLinkId: 'other' });
    givenLink({ paidBy: mine.id }, [mine, foreign]);
    const shown = await call(linkPageHandler, event({ queryStringParameters: { payment: mine.id } }));
    expect(shown.body).toContain('Paiement réussi');
    const hidden = await call(linkPageHandler, event({ queryStringParameters: { payment: foreign.id } }));
    expect(hidden.statusCode).toBe(200);
    expect(hidden.body).not.toContain('Paiement réussi');
    expect(hidden.body).toContain('Ce lien de paiement a déjà été payé');
  });

  it('speaks English to a browser that prefers it', async () => {
    givenLink();
    const response = await call(linkPageHandler, event({ headers: { 'Accept-Language': 'en-GB,en' } }));
    expect(response.body).toContain('Payment method');
  });
});

describe('POST /pl/{id}', () => {
  it("starts the payment, sends the customer to the provider's page, and hands the browser its attempt token", async () => {
    givenLink();
    pay.mockResolvedValue({
      request: payment({ checkoutUrl: 'https://pay.example/sandbox/provider/checkout/sbx_x' }),
      attemptToken: token,
    });
    const response = await call(submitLinkPage, post(valid));
    expect(response.statusCode).toBe(303);
    expect(response.headers?.location).toBe('https://pay.example/sandbox/provider/checkout/sbx_x');
    expect(response.headers?.['set-cookie']).toBe(
      `pl_attempt=${token}; Path=/pl/${linkId}; Max-Age=600; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(pay).toHaveBeenCalledWith(
      linkId,
      { paymentMethod: 'orange', payerPhone: '+2250700000001', attemptToken: undefined },
      'https://pay.example',
    );
  });

  it("presents the browser's earlier attempt token, so that it may start over at once", async () => {
    givenLink();
    pay.mockResolvedValue({ request: payment({ checkoutUrl: 'https://p.example/c' }), attemptToken: token });
    await call(submitLinkPage, post(valid, { Cookie: `other=1; pl_attempt=${token}` }));
    expect(pay).toHaveBeenCalledWith(
      linkId,
      expect.objectContaining({ attemptToken: token }),
      expect.any(String),
    );
  });

  it('shows the form again with the errors, 400, and starts nothing, for a missing provider or a bad phone', async () => {
    givenLink();
    const response = await call(submitLinkPage, post('payerPhone=0700'));
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Choisissez un moyen de paiement.');
    expect(response.body).toContain(
      'Saisissez un numéro mobile en Côte d’Ivoire, par exemple 07 07 12 34 56.',
    );
    expect(response.body).toContain('value="0700"');
    expect(response.headers?.['set-cookie']).toBeUndefined();
    expect(pay).not.toHaveBeenCalled();
  });

  it('answers 409 with the explanation when another attempt holds the link', async () => {
    givenLink();
    pay.mockRejectedValue(new PaymentLinkIsInvalid());
    const response = await call(submitLinkPage, post(valid));
    expect(response.statusCode).toBe(409);
    expect(response.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('Réessayez dans quelques minutes');
    expect(response.body).not.toContain('<form');
  });

  it('answers 409 saying the link is paid, without trying, when it is', async () => {
    givenLink({ paidBy: paymentId });
    const response = await call(submitLinkPage, post(valid));
    expect(response.statusCode).toBe(409);
    expect(response.body).toContain('Ce lien de paiement a déjà été payé');
    expect(pay).not.toHaveBeenCalled();
  });

  it('answers 409 saying the link is no longer active, without trying, when it is switched off', async () => {
    givenLink({ active: false, allowMultiplePayments: true });
    const response = await call(submitLinkPage, post(valid));
    expect(response.statusCode).toBe(409);
    expect(response.body).toContain('Ce lien de paiement n&#39;est plus actif');
    expect(response.body).not.toContain('<form');
    expect(pay).not.toHaveBeenCalled();
  });

  it('reads `orange_money` posted by the form as Orange Money, as the API does', async () => {
    givenLink();
    pay.mockResolvedValue({ request: payment({ checkoutUrl: 'https://p.example/c' }), attemptToken: token });
    await call(submitLinkPage, post('paymentMethod=orange_money&payerPhone=0700000001'));
    expect(pay).toHaveBeenCalledWith(
      linkId,
      expect.objectContaining({ paymentMethod: 'orange' }),
      expect.any(String),
    );
  });

  it("shows the provider's refusal in the form, 400", async () => {
    givenLink();
    pay.mockRejectedValue(new ProviderRefused());
    const response = await call(submitLinkPage, post(valid));
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Orange Money a refusé ce paiement.');
    expect(response.body).toContain('<form');
  });

  it('answers the friendly 404 page for an unknown link', async () => {
    givenLink();
    const response = await call(
      submitLinkPage,
      event({
        ...post(valid),
        pathParameters: { id: '11111111-1111-4111-8111-111111111111' },
      }),
    );
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Paiement introuvable');
    expect(pay).not.toHaveBeenCalled();
  });
});
