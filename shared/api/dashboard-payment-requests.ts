import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text } from '#shared/api/form-fields.ts';
import { startsCollections } from '#shared/catalogue/access.ts';

/**
 * "Ask for a payment" on the dashboard (issue 26, item 4): the form and the latest asks, the ask
 * itself (a check step, then the payment request through the API's operation with its hosted
 * page's address texted to the payer on the SMS balance), and one request's page, whose status
 * follows the payment. `requestPayment` to ask (owner, admin), `read` to see. A post needs the
 * site's Origin and the session's CSRF token.
 */
const query = object({
  lang: optional(enumOf(['fr', 'en'])).register(globalRegistry, {
    description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
  }),
});
const tag = 'Dashboard';
const signedOut = 'No session: to the sign-in page.';
const forbidden =
  'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.';

export const dashboardPaymentRequestEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  paymentRequestsPage: {
    method: 'GET',
    path: '/dashboard/payment-requests',
    caller: 'public',
    permission: 'read',
    // The SMS account is made, empty, the first time its balance is read (as the API does).
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask for a payment: the form, the SMS balance and the latest asks with their status',
    query,
    answers: { 200: 'The latest asks; the form for roles that may ask.', 303: signedOut },
  },
  askForPaymentPage: {
    method: 'POST',
    path: '/dashboard/payment-requests',
    caller: 'public',
    permission: 'requestPayment',
    access: [
      'table:DeleteItem',
      'table:GetItem',
      'table:PutItem',
      'table:Query',
      'table:UpdateItem',
      ...startsCollections,
      'device:push',
    ],
    page: true,
    tag,
    summary: 'Check an ask (the text and its SMS cost), then make the request and text it to the payer',
    query,
    form: object({
      csrf: string(),
      storeId: text(),
      amount: text().register(globalRegistry, { description: 'Whole francs as typed: `1500`, `1 500`.' }),
      payerPhone: text().register(globalRegistry, {
        description: 'A national number is read in `phoneCountry`, else the store’s country.',
      }),
      phoneCountry: optional(string()).register(globalRegistry, {
        description: 'The country the form’s select names for a national number (`SN`).',
      }),
      note: text().register(globalRegistry, {
        description: 'What it is for, up to 255 characters.',
      }),
      confirm: optional(enumOf(['yes', 'change'])).register(globalRegistry, {
        description:
          '`yes` on the check step’s button: ask; `change`: the form again to change it. Without it, the check step.',
      }),
    }),
    answers: {
      200: 'The check step: the amount, the payer, the text and its segments, the balance.',
      303: 'Asked: to the request’s page.',
      400: 'The form again, each wrong field named; or a body that is not a form.',
      403: forbidden,
      422: 'The SMS balance does not cover the text: nothing is made, nothing charged; or the month’s collection ceiling.',
    },
  },
  paymentRequestPage: {
    method: 'GET',
    path: '/dashboard/payment-requests/{requestId}',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'One payment request: pending, paid, expired or cancelled, followed while it is pending',
    params: object({ requestId: string() }),
    query: object({
      lang: optional(enumOf(['fr', 'en'])),
      attempt: optional(string()).register(globalRegistry, {
        description: 'The page’s script’s count of looks.',
      }),
    }),
    answers: { 200: 'The request as it is now.', 303: signedOut, 404: 'Not a request of the business.' },
  },
});
