import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text } from '#shared/api/form-fields.ts';
import { paysOut, sendsWebhooks } from '#shared/catalogue/access.ts';

/**
 * The dashboard's transactions (issue 26, item 2): the list with filters and search, one
 * transaction's page with its timeline, and its actions through the API's operations (a refund in
 * two steps, the cancellation of a pending request, a webhook delivery sent again). Each page asks
 * the member's role first (`read`; `refund`, `cancelPayment`, `manageWebhooks` for the actions), so
 * a post of a role that may not is refused (403) before anything is read or written; as on every
 * dashboard page, a post needs the site's Origin and the session's CSRF token.
 */
const lang = optional(enumOf(['fr', 'en'])).register(globalRegistry, {
  description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
});
const at = optional(string()).register(globalRegistry, {
  description:
    'The line’s `createdAt`, as the list’s links carry it: the line is then read directly. Without it, the id is looked up (a payment request’s, or the last 90 days’ lines).',
});
const query = object({ lang, at });
const csrf = string().register(globalRegistry, { description: 'The session’s form token (hidden field).' });
const forbidden =
  'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.';
const signedOut = 'No session: to the sign-in page.';
const notFound = 'Not a transaction or payment request of the business (another business’s, or junk).';
const tag = 'Dashboard';
const params = object({
  transactionId: string().register(globalRegistry, {
    description: 'The line’s `id` as the API lists it, or a payment request’s id.',
  }),
});

export const dashboardTransactionEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  transactionsPage: {
    method: 'GET',
    path: '/dashboard/transactions',
    caller: 'public',
    permission: 'read',
    // The API's list keeps its listing instant per member (shared/data/list-snapshot.ts).
    access: ['table:GetItem', 'table:Query', 'table:PutItem', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The transactions, newest first, with filters and search',
    query: object({
      lang,
      store: optional(string()).register(globalRegistry, { description: 'A store’s id.' }),
      type: optional(enumOf(['payment', 'transfer', 'escrow', 'refund'])),
      status: optional(enumOf(['pending', 'success', 'error'])),
      operator: optional(string()).register(globalRegistry, {
        description: 'A payment method, as the API lists it.',
      }),
      from: optional(string()).register(globalRegistry, {
        description: '`YYYY-MM-DD`; 29 days before `to` by default.',
      }),
      to: optional(string()).register(globalRegistry, {
        description: '`YYYY-MM-DD`, at most 90 days after `from`; today by default.',
      }),
      q: optional(string()).register(globalRegistry, {
        description: 'A reference (the order’s, or the receipt’s), a payer’s number, or an id.',
      }),
      page: optional(string()),
    }),
    answers: {
      200: 'A page of the list; a wrong filter is ignored and the page says why.',
      303: signedOut,
    },
  },
  transactionPage: {
    method: 'GET',
    path: '/dashboard/transactions/{transactionId}',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:BatchGetItem', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'One transaction: its timeline and its actions',
    params,
    query: object({
      lang,
      at,
      done: optional(enumOf(['cancelled', 'refunded'])).register(globalRegistry, {
        description: 'What was just done to it, said at the top.',
      }),
    }),
    answers: { 200: 'The transaction.', 303: signedOut, 404: notFound },
  },
  refundTransactionPage: {
    method: 'POST',
    path: '/dashboard/transactions/{transactionId}/refund',
    caller: 'public',
    permission: 'refund',
    access: ['table:GetItem', 'table:Query', 'table:BatchGetItem', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The refund’s amount: the confirmation with the fee, nothing written yet',
    params,
    query,
    form: object({ csrf, amount: text().register(globalRegistry, { description: 'Whole francs.' }) }),
    answers: {
      200: 'The confirmation: the amount, the fee and what leaves the balance.',
      400: 'The transaction’s page again, with the amount’s error.',
      403: forbidden,
      404: notFound,
      409: 'Not refundable (not paid, in escrow, refunded in full).',
    },
  },
  confirmRefundTransactionPage: {
    method: 'POST',
    path: '/dashboard/transactions/{transactionId}/refund/confirm',
    caller: 'public',
    permission: 'refund',
    access: [
      'table:GetItem',
      'table:Query',
      'table:BatchGetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...paysOut,
    ],
    page: true,
    tag,
    summary: 'The refund, through the API’s operation; the same confirmation posted twice refunds once',
    params,
    query,
    form: object({
      csrf,
      amountCents: text(),
      key: text().register(globalRegistry, {
        description: 'The confirmation’s own key: its refund’s reference.',
      }),
    }),
    answers: {
      303: 'To the transaction’s page, saying the refund is made, the refund in its timeline.',
      400: 'A form that is not the confirmation’s.',
      403: forbidden,
      404: notFound,
      409: 'More than remains refundable, not refundable, or the balance does not cover it: the page says which.',
      503: 'The payer’s operator is down: nothing refunded, the page says so.',
    },
  },
  confirmCancelPaymentPage: {
    method: 'GET',
    path: '/dashboard/transactions/{transactionId}/cancel',
    caller: 'public',
    access: ['table:GetItem', 'table:Query', 'table:BatchGetItem', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before cancelling a pending payment request: what it changes for the payer',
    permission: 'cancelPayment',
    params,
    query,
    answers: {
      200: 'The confirmation.',
      303: signedOut,
      403: forbidden,
      404: notFound,
      409: 'The request has ended already: its page, saying so.',
    },
  },
  cancelPaymentPage: {
    method: 'POST',
    path: '/dashboard/transactions/{transactionId}/cancel',
    caller: 'public',
    permission: 'cancelPayment',
    access: [
      'table:GetItem',
      'table:Query',
      'table:BatchGetItem',
      'table:PutItem',
      'table:UpdateItem',
      'device:push',
    ],
    page: true,
    tag,
    summary: 'Cancel a pending payment request, through the API’s operation',
    params,
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the transaction’s page, saying it was cancelled.',
      400: 'Not a form.',
      403: forbidden,
      404: notFound,
      409: 'The request has ended already: the page says so.',
    },
  },
  resendTransactionDeliveryPage: {
    method: 'POST',
    path: '/dashboard/transactions/{transactionId}/deliveries/{deliveryId}/resend',
    caller: 'public',
    permission: 'manageWebhooks',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem', ...sendsWebhooks],
    page: true,
    tag,
    summary: 'Send one of the transaction’s webhook deliveries again, the same bytes',
    params: object({ transactionId: string(), deliveryId: string() }),
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the transaction’s page, the re-send in its list.',
      400: 'Not a form.',
      403: forbidden,
      404: 'Not a delivery of the business, or no subscription.',
    },
  },
});
