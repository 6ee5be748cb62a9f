import { enum as enumOf, object, string, uuid } from 'zod';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';

/**
 * The hosted pages, for the reference. They read their few form fields themselves and answer
 * HTML in the payer's language, so these schemas describe rather than validate.
 */
const idParams = object({ id: uuid() });
const language = enumOf(['fr', 'en']).optional().meta({
  description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
});
export const pageQuery = object({ lang: language });
const payerForm = object({
  paymentMethod: enumOf(providerCodes),
  payerPhone: string().meta({
    description: '`+225` and 10 digits; spaces, `00225` or no prefix are accepted.',
  }),
});
const checkoutParams = object({ providerReference: string() });

const tag = 'Hosted pages';

export const pageContracts = {
  paymentPage: {
    page: true,
    tag,
    summary: 'The payment page of a payment request (`redirectUrl`)',
    params: idParams,
    query: pageQuery,
    answers: { 200: 'The page: the store, the amount, the providers and a phone field.', 404: 'Unknown id.' },
  },
  submitPaymentPage: {
    page: true,
    tag,
    summary: 'Pay from the payment page',
    params: idParams,
    query: pageQuery,
    form: payerForm,
    answers: {
      303: 'To the provider’s page, or back to the page when the request is closed.',
      400: 'The page again, with the error.',
      404: 'Unknown id.',
    },
  },
  paymentReturnPage: {
    page: true,
    tag,
    summary: 'Where the provider sends the payer back',
    params: idParams,
    query: object({ lang: language, attempt: string().optional() }),
    answers: {
      200: 'Waiting for the provider (reloads every 2 seconds), or the outcome.',
      303: 'To `successUrl` or `errorUrl` once decided.',
      404: 'Unknown id.',
    },
  },
  linkPage: {
    page: true,
    tag,
    summary: 'The page of a payment link (`link`)',
    params: idParams,
    query: object({ lang: language, payment: uuid().optional(), attempt: string().optional() }),
    answers: { 200: 'The page, or the outcome of the payment `payment`.', 404: 'Unknown id.' },
  },
  submitLinkPage: {
    page: true,
    tag,
    summary: 'Pay a payment link',
    params: idParams,
    query: pageQuery,
    form: payerForm,
    answers: {
      303: 'To the provider’s page.',
      400: 'The page again, with the error.',
      404: 'Unknown id.',
      409: 'A single-use link being paid by someone else, or already paid.',
    },
  },
  sandboxCheckoutPage: {
    page: true,
    tag: 'Sandbox',
    summary: 'The sandbox provider’s approval page',
    params: checkoutParams,
    query: pageQuery,
    answers: {
      200: 'Approve or decline.',
      303: 'Already answered: back to the return page.',
      404: 'Unknown.',
    },
  },
  sandboxCheckoutAction: {
    page: true,
    tag: 'Sandbox',
    summary: 'Approve or decline on the sandbox provider’s page',
    params: checkoutParams,
    query: pageQuery,
    form: object({ action: enumOf(['approve', 'decline']), payerPhone: string().optional() }),
    answers: { 303: 'Back to the return page.', 400: 'The page again, with the error.', 404: 'Unknown.' },
  },
} as const satisfies RouteContracts;
