import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { isFollowableReturnUrl } from '#shared/domain/return-urls.ts';
import { formatAmount, formatPhone } from '#shared/pages/format.ts';
import { escapeHtml, html } from '#shared/pages/html.ts';
import { negotiateLanguage } from '#shared/pages/language.ts';
import { contentSecurityPolicy, withLanguage } from '#shared/pages/layout.ts';
import { paymentPage, waitingPage } from '#shared/pages/payment-page.ts';

const context = { language: 'fr' as const, languagePinned: false, baseUrl: 'https://pay.example' };

function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    id: '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11',
    businessId: 'b',
    storeId: 's',
    storeName: 'Boutique Awa',
    reference: 'ORDER-1',
    type: 'redirect',
    paymentMethod: 'wave',
    amountCents: 150000,
    currency: 'XOF',
    successUrl: 'https://shop.example/paid',
    errorUrl: 'https://shop.example/failed',
    forceProviderDirect: false,
    redirectUrl: 'https://pay.example/payment/0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11',
    status: 'pending',
    errorReason: null,
    transaction: null,
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** What Intl puts between thousands and before the symbol, whatever the ICU version. */
const xof = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF' });
const groupSeparator = xof.formatToParts(1500).find((part) => part.type === 'group')?.value ?? '';
const symbolSeparator = xof.formatToParts(1).find((part) => part.type === 'literal')?.value ?? '';
const symbol = xof.formatToParts(1).find((part) => part.type === 'currency')?.value ?? '';

describe('HTML escaping', () => {
  it('escapes the characters that end text or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
  });

  it('escapes every interpolated value by default and leaves nested html as it is', () => {
    const name = '<b>x</b>';
    expect(html`<p title="${name}">${name}${html`<i>${name}</i>`}</p>`.value).toBe(
      '<p title="&lt;b&gt;x&lt;/b&gt;">&lt;b&gt;x&lt;/b&gt;<i>&lt;b&gt;x&lt;/b&gt;</i></p>',
    );
  });

  it('renders nothing for null, undefined and false, and joins arrays', () => {
    expect(html`${null}${undefined}${false}${['<', html`<br>`, 1]}`.value).toBe('&lt;<br>1');
  });

  it('shows an XSS attempt in a store name or reference as text on the payment page', () => {
    const page = paymentPage(
      paymentRequest({
        storeName: '<img src=x onerror=alert(1)>',
        reference: '"><script>alert(document.cookie)</script>',
      }),
      context,
    );
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('&quot;&gt;&lt;script&gt;alert(document.cookie)&lt;/script&gt;');
  });

  it('does not offer a javascript: return URL as a link on a completed payment', () => {
    const page = paymentPage(
      paymentRequest({ status: 'success', successUrl: 'javascript:alert(1)' }),
      context,
    );
    expect(page).not.toContain('javascript:');
    expect(isFollowableReturnUrl('myapp://paid?reference=x')).toBe(true);
    expect(isFollowableReturnUrl('JavaScript:alert(1)')).toBe(false);
    expect(isFollowableReturnUrl('data:text/html,<script>')).toBe(false);
  });
});

describe('XOF amounts', () => {
  it('shows whole francs without decimals, grouped the French way', () => {
    expect(formatAmount(100)).toBe(`1${symbolSeparator}${symbol}`);
    expect(formatAmount(150000)).toBe(`1${groupSeparator}500${symbolSeparator}${symbol}`);
    expect(formatAmount(150000).replace(/\s/g, ' ')).toBe('1 500 F CFA');
    expect(formatAmount(123456700).replace(/\s/g, ' ')).toBe('1 234 567 F CFA');
  });

  it('uses the narrow no-break space Intl produces between thousands, so an amount never breaks', () => {
    expect(groupSeparator).toBe('\u202f');
    expect(formatAmount(150000)).not.toContain(' ');
  });

  it('shows exactly two decimals when the amount is not whole, never rounding it away', () => {
    expect(formatAmount(150).replace(/\s/g, ' ')).toBe('1,50 F CFA');
    expect(formatAmount(150001).replace(/\s/g, ' ')).toBe('1 500,01 F CFA');
  });

  it('writes phones the way they are read locally', () => {
    expect(formatPhone('+2250700000001').replace(/\s/g, ' ')).toBe('+225 07 00 00 00 01');
  });
});

describe('language negotiation', () => {
  it('is French by default', () => {
    expect(negotiateLanguage(undefined)).toBe('fr');
    expect(negotiateLanguage('')).toBe('fr');
    expect(negotiateLanguage('*')).toBe('fr');
    expect(negotiateLanguage('de-DE,de;q=0.9')).toBe('fr');
  });

  it('is English when the browser prefers English', () => {
    expect(negotiateLanguage('en-US,en;q=0.9')).toBe('en');
    expect(negotiateLanguage('en')).toBe('en');
    expect(negotiateLanguage('de,en;q=0.8,fr;q=0.5')).toBe('en');
    expect(negotiateLanguage('fr;q=0.4, EN-gb;q=0.7')).toBe('en');
  });

  it('is French for any French region, and when French ranks first', () => {
    expect(negotiateLanguage('fr-CI')).toBe('fr');
    expect(negotiateLanguage('fr-CI,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(negotiateLanguage('en;q=0,fr;q=0.1')).toBe('fr');
  });

  it('lets ?lang= win over the browser, and ignores a language it does not have', () => {
    expect(negotiateLanguage('en-US,en;q=0.9', 'fr')).toBe('fr');
    expect(negotiateLanguage('fr-CI', 'en')).toBe('en');
    expect(negotiateLanguage('en-US', 'EN')).toBe('en');
    expect(negotiateLanguage('en-US', 'wo')).toBe('en');
  });

  it('renders the page in the chosen language, with a switch to the other one', () => {
    const french = paymentPage(paymentRequest(), context);
    expect(french).toContain('<html lang="fr">');
    expect(french).toContain('Moyen de paiement');
    expect(french).toContain(
      'href="https://pay.example/payment/0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11?lang=en"',
    );
    const english = paymentPage(paymentRequest(), { ...context, language: 'en' });
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Payment method');
    expect(english).toContain('?lang=fr"');
  });

  it('keeps a language chosen on the page in the form it posts', () => {
    const page = paymentPage(paymentRequest(), { ...context, language: 'en', languagePinned: true });
    expect(page).toContain(
      'action="https://pay.example/payment/0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11?lang=en"',
    );
    expect(withLanguage('https://a.example/p?attempt=3', 'fr')).toBe('https://a.example/p?attempt=3&lang=fr');
  });
});

describe('the payment page', () => {
  it('tells a payer back on the form that the payment already started may still go through', () => {
    expect(paymentPage(paymentRequest(), context)).not.toContain('earlier-collection');
    const started = paymentRequest({ providerReference: 'sbx_1', collectionMethod: 'orange' });
    const french = paymentPage(started, context);
    expect(french).toContain('id="earlier-collection"');
    expect(french).toContain('Un paiement avec Orange Money a déjà été demandé');
    const english = paymentPage(started, { ...context, language: 'en' });
    expect(english).toContain('A payment with Orange Money was already requested and may still go through');
    expect(english).toContain('refunded to you automatically');
  });

  it('lists the five providers with the requested one chosen', () => {
    const page = paymentPage(paymentRequest({ paymentMethod: 'mtn' }), context);
    for (const code of ['orange', 'wave', 'mtn', 'moov', 'djamo']) expect(page).toContain(`value="${code}"`);
    expect(page).toMatch(/value="mtn" checked/);
    expect(page.match(/ checked/g)).toHaveLength(1);
  });

  it('shows how a finished payment ended, with the way back, instead of the form', () => {
    const failed = paymentPage(
      paymentRequest({ status: 'error', errorReason: 'insufficient_funds' }),
      context,
    );
    expect(failed).not.toContain('<form');
    expect(failed).toContain('Échec du paiement');
    expect(failed).toContain('Le solde du compte mobile money est insuffisant.');
    expect(failed).toContain('href="https://shop.example/failed"');
  });

  it('says an expired or cancelled request has ended, in French and English, with no pay button', () => {
    const expired = paymentRequest({ status: 'error', errorReason: 'expired' });
    const french = paymentPage(expired, context);
    expect(french).not.toContain('<form');
    expect(french).toContain('Demande de paiement expirée');
    expect(french).toContain('Le délai pour payer cette demande est dépassé.');
    const english = paymentPage(expired, { ...context, language: 'en' });
    expect(english).toContain('Payment request expired');
    expect(english).toContain('The time to pay this request has run out.');
    const cancelled = paymentPage(paymentRequest({ status: 'error', errorReason: 'cancelled' }), context);
    expect(cancelled).toContain('Paiement annulé');
    expect(cancelled).toContain('Le marchand a annulé cette demande de paiement.');
  });

  it('brings a declined payer back to the form with the reason, to try another provider or number', () => {
    const declined = paymentRequest({
      providerReference: 'sbx_1',
      collectionMethod: 'orange',
      attemptError: 'declined',
      payerPhone: '+2250700000002',
    });
    const page = paymentPage(declined, context);
    expect(page).toContain('id="attempt-failed"');
    expect(page).toContain('Vous avez refusé le paiement sur votre téléphone.');
    expect(page).toContain('Essayez un autre opérateur ou un autre numéro.');
    // The failed collection cannot go through any more: no warning about paying twice.
    expect(page).not.toContain('earlier-collection');
    expect(page).toMatch(/value="orange" checked/);
    expect(paymentPage(declined, { ...context, language: 'en' })).toContain(
      'You declined the payment on your phone. No money was taken. Try another provider or number.',
    );
  });

  it('offers a way back to the shop that leaves the payment, as a form of its own', () => {
    const page = paymentPage(paymentRequest(), context);
    expect(page).toContain(
      '<form class="leave" method="post" action="https://pay.example/payment/0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11/abandon">',
    );
    expect(page).toContain('Retour à la boutique</button>');
    // A soundbox payer is at the till: there is no shop to go back to.
    expect(paymentPage(paymentRequest({ type: 'soundbox', errorUrl: undefined }), context)).not.toContain(
      'class="leave"',
    );
  });

  it('looks for the outcome in the background while waiting, never reloading itself, and offers to check without a script', () => {
    const started = paymentRequest({ providerReference: 'sbx_x' });
    const waiting = waitingPage(started, context, 0);
    expect(waiting).not.toContain('http-equiv="refresh"');
    expect(waiting).toContain(
      'data-poll="https://pay.example/payment/0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11/return" data-attempt="0" data-attempts="90"',
    );
    expect(waiting).toContain('<script>');
    expect(waiting).toContain(
      'href="https://pay.example/payment/0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11/return?attempt=1">Vérifier à nouveau</a>',
    );
    const over = waitingPage(started, context, 90);
    expect(over).not.toContain('data-poll=');
    expect(over).not.toContain('<script>');
    expect(over).toContain(
      'href="https://pay.example/payment/0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11/return">Vérifier à nouveau</a>',
    );
    // No other page carries the script.
    expect(paymentPage(paymentRequest(), context)).not.toContain('<script>');
  });

  it('is served under a policy that allows only its own stylesheet and waiting script, by their hashes', () => {
    expect(contentSecurityPolicy).toContain("default-src 'none'");
    expect(contentSecurityPolicy).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(contentSecurityPolicy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(contentSecurityPolicy).toContain("connect-src 'self'");
    expect(contentSecurityPolicy).toContain("frame-ancestors 'none'");
    expect(contentSecurityPolicy).not.toContain('unsafe');
    // The script element a waiting page carries is the very one the policy's hash allows.
    const script = /<script>([\s\S]*?)<\/script>/.exec(
      waitingPage(paymentRequest({ providerReference: 'sbx_x' }), context, 0),
    )?.[1];
    const hash = createHash('sha256')
      .update(script ?? '')
      .digest('base64');
    expect(contentSecurityPolicy).toContain(`script-src 'sha256-${hash}'`);
  });
});

describe('payer phones typed on the page', () => {
  it('accepts the usual ways of writing an Ivorian number', () => {
    for (const typed of [
      '+2250700000001',
      '+225 07 00 00 00 01',
      '07 00 00 00 01',
      '00225 0700000001',
      '225-07-00-00-00-01',
    ]) {
      expect(readZoneNumber(typed)?.e164).toBe('+2250700000001');
    }
  });

  it('refuses what is not one', () => {
    for (const typed of [
      undefined,
      '',
      '+225 07 00',
      '+33612345678',
      '0700000001x',
      '+2250700000001234',
      '+2252720000000',
    ]) {
      expect(readZoneNumber(typed)).toBeUndefined();
    }
  });
});
