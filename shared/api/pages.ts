import { enum as enumOf, globalRegistry, object, optional, string, uuid } from 'zod/mini';
import { idPathParams, paymentMethodInput } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { startsCollections } from '#shared/catalogue/access.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import { uemoaCountries } from '#shared/domain/uemoa-countries.ts';

/**
 * The hosted pages, for the reference. They read their few form fields themselves and answer
 * HTML in the payer's language, so these schemas describe rather than validate.
 */
const idParams = object({ id: uuid() });
const language = optional(enumOf(['fr', 'en'])).register(globalRegistry, {
  description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
});
const country = optional(enumOf(uemoaCountries)).register(globalRegistry, {
  description: 'The payer’s country, whose providers the form offers; by default the store’s.',
});
export const pageQuery = object({ lang: language });
const payerForm = object({
  paymentMethod: paymentMethodInput(providerCodes),
  payerPhone: string().register(globalRegistry, {
    description:
      'A mobile number of a UEMOA country: international (`+221…`, `00221…`), or national, read in `payerCountry`; spaces and dots are accepted.',
  }),
  payerCountry: optional(enumOf(uemoaCountries)).register(globalRegistry, {
    description: 'The payer’s country (ISO 3166-1 alpha-2); by default the store’s.',
  }),
});

const tag = 'Hosted pages';

export const hostedPageEndpoints = /* @__PURE__ */ endpointsIn('pages', {
  linkPage: {
    method: 'GET',
    path: '/pl/{id}',
    caller: 'public',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts); the providers'
      // secret: pawaPay's published availability is read with its token.
      'table:Query',
      'table:GetItem',
      'secret:providers',
    ],
    page: true,
    tag,
    summary: 'The page of a payment link (`link`)',
    params: idParams,
    query: object({ lang: language, payment: optional(uuid()), attempt: optional(string()), country }),
    answers: { 200: 'The page, or the outcome of the payment `payment`.', 404: 'Unknown id.' },
  },
  submitLinkPage: {
    method: 'POST',
    path: '/pl/{id}',
    caller: 'public',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      'table:ConditionCheckItem',
      ...startsCollections,
    ],
    page: true,
    tag,
    summary: 'Pay a payment link',
    params: idParams,
    query: object({ lang: language, payment: optional(uuid()) }),
    form: payerForm,
    answers: {
      303: 'To the provider’s page.',
      400: 'The page again, with the error.',
      404: 'Unknown id.',
      409: 'A single-use link being paid by someone else, or already paid.',
    },
  },
  paymentPage: {
    method: 'GET',
    path: '/payment/{id}',
    caller: 'public',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts); the providers'
      // secret: pawaPay's published availability is read with its token.
      'table:Query',
      'table:GetItem',
      'secret:providers',
    ],
    page: true,
    tag,
    summary: 'The payment page of a payment request (`redirectUrl`)',
    params: idParams,
    query: object({ lang: language, country }),
    answers: { 200: 'The page: the store, the amount, the providers and a phone field.', 404: 'Unknown id.' },
  },
  submitPaymentPage: {
    method: 'POST',
    path: '/payment/{id}',
    caller: 'public',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...startsCollections,
    ],
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
  abandonPaymentPage: {
    method: 'POST',
    path: '/payment/{id}/abandon',
    caller: 'public',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'device:push'],
    page: true,
    tag,
    summary: 'Leave the payment page (“back to the shop”)',
    params: idParams,
    query: pageQuery,
    answers: {
      303: 'To `errorUrl`, the request ended `abandoned` (to `successUrl` if it was paid meanwhile).',
      200: 'The outcome, when the merchant’s URL cannot be followed from a page.',
      404: 'Unknown id.',
    },
  },
  paymentReturnPage: {
    method: 'GET',
    path: '/payment/{id}/return',
    caller: 'public',
    access: ['table:GetItem'],
    page: true,
    tag,
    summary: 'Where the provider sends the payer back',
    params: idParams,
    query: object({ lang: language, attempt: optional(string()) }),
    answers: {
      200: 'Waiting for the provider (reloads every 2 seconds), or the outcome.',
      303: 'To `successUrl` or `errorUrl` once decided.',
      404: 'Unknown id.',
    },
  },
  linkRequestPage: {
    method: 'GET',
    path: '/lr/{id}',
    caller: 'public',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    page: true,
    tag: 'Hosted pages',
    summary: 'The owner’s consent page of a link request',
    params: idPathParams,
    query: pageQuery,
    answers: { 200: 'The code field with approve and decline, or the outcome.', 404: 'Unknown id.' },
  },
  submitLinkRequestPage: {
    method: 'POST',
    path: '/lr/{id}',
    caller: 'public',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    page: true,
    tag: 'Hosted pages',
    summary: 'Approve or decline with the SMS code',
    params: idPathParams,
    query: pageQuery,
    form: object({
      code: string().register(globalRegistry, { description: 'The six digits sent by SMS.' }),
      decision: enumOf(['approve', 'decline']),
    }),
    answers: {
      200: 'The outcome; the fifth wrong code declines the request.',
      400: 'A wrong code: the page again, with the attempts left.',
      404: 'Unknown id.',
    },
  },
});
