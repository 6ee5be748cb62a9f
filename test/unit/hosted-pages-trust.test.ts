import { afterEach, describe, expect, it } from 'vitest';
import type { ComplianceVerification } from '#shared/data/compliance-verification.ts';
import type { LinkRequest } from '#shared/data/link-request.ts';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { countryTimeZones } from '#shared/domain/country-time-zones.ts';
import { linkRequestPage } from '#shared/pages/link-request-page.ts';
import { paymentPage } from '#shared/pages/payment-page.ts';
import { checkIdentityForm, verificationPage } from '#shared/pages/verification-page.ts';

const context = { language: 'fr' as const, languagePinned: false, baseUrl: 'https://pay.example' };
const id = '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11';

function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    id,
    businessId: 'b',
    storeId: 's',
    storeName: 'Boutique Awa',
    reference: 'CMD-2041',
    type: 'redirect',
    paymentMethod: 'wave',
    amountCents: 150000,
    currency: 'XOF',
    successUrl: 'https://shop.example/paid',
    errorUrl: 'https://shop.example/failed',
    forceProviderDirect: false,
    redirectUrl: `https://pay.example/payment/${id}`,
    status: 'pending',
    errorReason: null,
    transaction: null,
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const paid = (overrides: Partial<PaymentRequest> = {}) =>
  paymentRequest({
    status: 'success',
    collectionMethod: 'orange',
    payerPhone: '+2250700000001',
    providerReference: 'sbx_1',
    transaction: {
      id: '7e57a11d-0000-4000-8000-000000000000',
      amount: { amount: 150000, currency: 'XOF' },
      fees: { amount: 2300, currency: 'XOF' },
      status: 'success',
      counterpartLabel: '+2250700000001',
      counterpartIdentifier: '+2250700000001',
      description: 'Payment',
      executedAt: '2026-11-23 23:14:05',
    },
    ...overrides,
  });

const plain = (text: string) => text.replace(/\s+/g, ' ');

const sandbox = process.env.SANDBOX;
afterEach(() => {
  if (sandbox === undefined) delete process.env.SANDBOX;
  else process.env.SANDBOX = sandbox;
});

describe('what makes a payer trust the hosted pages', () => {
  it('names the operators in full, as chips in their colours, and the merchant in full', () => {
    const page = paymentPage(paymentRequest(), context);
    expect(page).toContain('<span class="chip brand-wave">Wave</span>');
    expect(page).toContain('<span class="chip brand-orange">Orange Money</span>');
    expect(page).toContain('<h1 class="store">Boutique Awa</h1>');
    expect(page).not.toContain('merchant-mark');
    expect(page).toContain('<span>Partner Payments Service</span>');
  });

  it('labels the order reference as the merchant’s', () => {
    expect(plain(paymentPage(paymentRequest(), context))).toContain('Commande du marchand : CMD-2041');
    expect(plain(paymentPage(paymentRequest(), { ...context, language: 'en' }))).toContain(
      'Merchant’s order: CMD-2041',
    );
  });

  it('marks every page of a sandbox stage as test mode, and no page of production', () => {
    process.env.SANDBOX = 'true';
    expect(paymentPage(paymentRequest(), context)).toContain('Mode test — aucun argent réel');
    delete process.env.SANDBOX;
    expect(paymentPage(paymentRequest(), context)).not.toContain('Mode test');
  });

  it('says a payment under way is under way, checks on it first, and offers another way without choosing for the payer', () => {
    const started = paymentRequest({
      providerReference: 'sbx_1',
      collectionMethod: 'orange',
      payerPhone: '+2250700000004',
    });
    const page = plain(paymentPage(started, context));
    expect(page).toContain('Paiement Orange Money en cours');
    expect(page).toContain('Demande envoyée au +225 07 00 00 00 04.');
    expect(page).toContain('#144*82#');
    expect(page).toContain(
      `<a class="button" href="https://pay.example/payment/${id}/return">Voir où en est le paiement</a>`,
    );
    expect(page).toContain('Payer autrement');
    // The same operator's Pay is not offered again as the page's main button, nor pre-chosen.
    expect(page).not.toContain(' checked');
    expect(page).toContain(
      '<button class="button button-secondary" type="submit">Payer 1 500 F CFA</button>',
    );
    // Before any attempt, the form is the page's main action with the requested operator chosen.
    const fresh = plain(paymentPage(paymentRequest(), context));
    expect(fresh).toContain('value="wave" checked');
    expect(fresh).toContain('<button class="button" type="submit">Payer 1 500 F CFA</button>');
  });

  it("gives both references on the receipt, each labelled, and dates it in the store's zone with the zone written", () => {
    const abidjan = plain(paymentPage(paid(), context));
    expect(abidjan).toContain('<dt>Commande du marchand</dt><dd class="receipt-order">CMD-2041</dd>');
    expect(abidjan).toContain('<dt>Référence du paiement</dt><dd class="receipt-reference">7E57-A11D</dd>');
    expect(abidjan).toContain('<dd>23/11/2026 à 23:14 (UTC+0)</dd>');
    const cotonou = plain(paymentPage(paid(), { ...context, language: 'en', timeZone: countryTimeZones.BJ }));
    expect(cotonou).toContain('<dt>Merchant’s order</dt>');
    expect(cotonou).toContain('<dt>Payment reference</dt>');
    expect(cotonou).toContain('<dd>24/11/2026 at 00:14 (GMT+1)</dd>');
    // A link's payment has no order of the merchant's: its service reference is not shown as one.
    expect(plain(paymentPage(paid({ paymentLinkId: 'l', reference: `pl-${id}` }), context))).not.toContain(
      'Commande du marchand',
    );
  });
});

describe('the consent page', () => {
  const request = {
    id,
    status: 'pending',
    serviceProviderBusinessName: 'Caisse Pro',
    merchantBusinessName: 'Boutique Awa',
    ownerPhone: '+2250700000009',
  } as unknown as LinkRequest;

  it('says who asks, what it will be able to do in plain words, and what it will see', () => {
    const french = plain(linkRequestPage(request, context));
    expect(french).toContain('Caisse Pro demande à gérer votre entreprise Boutique Awa');
    expect(french).toContain('Si vous autorisez, Caisse Pro pourra :');
    expect(french).toContain('envoyer de l’argent depuis le solde de votre entreprise');
    expect(french).toContain('Vos données : Caisse Pro verra le nom de votre entreprise');
    expect(french).not.toMatch(/cl(é|e)s? d.API/i);
    const english = plain(linkRequestPage(request, { ...context, language: 'en' }));
    expect(english).toContain('If you allow it, Caisse Pro will be able to:');
    expect(english).not.toMatch(/API key/i);
    expect(english).toContain('>Decline</button>');
  });
});

describe('the identity check page', () => {
  const view = {
    verification: { id, status: 'pending' } as ComplianceVerification,
    serviceProviderName: 'Caisse Pro',
    merchantName: 'Couture Fatou',
  };
  const today = new Date('2026-11-25T12:00:00Z');
  const form = (date: [string, string, string], more: Record<string, string> = {}) => ({
    firstName: 'Fatou',
    lastName: 'Diallo',
    idNumber: 'CI-1234567',
    'dateOfBirth-day': date[0],
    'dateOfBirth-month': date[1],
    'dateOfBirth-year': date[2],
    ...more,
  });

  it('asks the date of birth in three fields, never a date picker showing mm/dd/yyyy', () => {
    const page = verificationPage(view, context);
    expect(page).not.toContain('type="date"');
    for (const part of ['day', 'month', 'year']) expect(page).toContain(`name="dateOfBirth-${part}"`);
    expect(plain(page)).toContain(
      'Caisse Pro vous demande de vérifier l’identité du responsable de Couture Fatou.',
    );
    expect(plain(page)).toContain('ne sont pas conservées par Partner Payments Service');
  });

  it('reads a real date in the past as YYYY-MM-DD', () => {
    expect(checkIdentityForm(form(['12', '4', '1990']), today)).toEqual({
      details: { firstName: 'Fatou', lastName: 'Diallo', idNumber: 'CI-1234567', dateOfBirth: '1990-04-12' },
    });
  });

  it('says what is wrong with each field, as the GOV.UK patterns do', () => {
    expect(checkIdentityForm(form(['', '', '']), today)).toEqual({ errors: { dateOfBirth: 'required' } });
    expect(checkIdentityForm(form(['12', '', '1990']), today)).toEqual({
      errors: { dateOfBirth: 'dateIncomplete' },
    });
    expect(checkIdentityForm(form(['31', '2', '1990']), today)).toEqual({
      errors: { dateOfBirth: 'dateNotReal' },
    });
    expect(checkIdentityForm(form(['1', '1', '90']), today)).toEqual({
      errors: { dateOfBirth: 'dateNotReal' },
    });
    expect(checkIdentityForm(form(['1', '1', '2030']), today)).toEqual({
      errors: { dateOfBirth: 'dateNotPast' },
    });
    expect(checkIdentityForm(form(['1', '1', '1990'], { firstName: ' ', idNumber: '' }), today)).toEqual({
      errors: { firstName: 'required', idNumber: 'required' },
    });
  });

  it('opens a rejected form with a summary linked to each wrong field, keeping what was typed', () => {
    const page = plain(
      verificationPage(view, context, {
        form: form(['31', '2', '1990'], { firstName: '' }),
        errors: { firstName: 'required', dateOfBirth: 'dateNotReal' },
      }),
    );
    expect(page).toContain('<div class="error-summary" role="alert" id="form-errors">');
    expect(page).toContain('<li><a href="#firstName">Saisissez vos prénoms.</a></li>');
    expect(page).toContain(
      '<li><a href="#dateOfBirth-day">La date de naissance doit être une vraie date.</a></li>',
    );
    expect(page).toContain('value="Diallo"');
    expect(page).toMatch(/id="dateOfBirth-day"[^>]*value="31" aria-invalid="true"/);
  });
});
