import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { paysOut } from '#shared/catalogue/access.ts';

/**
 * The dashboard's escrows (issue 26, item 6): the business's escrows as the API lists them, and
 * release or refund through the API's own operations (`releaseEscrowFor`, `refundEscrowFor`),
 * each after a confirmation that shows the amount. Reading needs `read`; acting needs
 * `manageEscrows` (owner, admin), asked before anything is read or written. A post needs the
 * site's Origin and the session's CSRF token; another business's escrow is 404; an escrow that
 * is no longer held (released, refunded, a second submit) is a 409 page and nothing moves.
 */
const query = object({
  lang: optional(enumOf(['fr', 'en'])).register(globalRegistry, {
    description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
  }),
});
const csrf = string().register(globalRegistry, { description: 'The session’s form token (hidden field).' });
const forbidden =
  'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.';
const signedOut = 'No session: to the sign-in page.';
const notHeld =
  'The escrow is no longer held (released, refunded, or being refunded): a page saying so, nothing moves.';
const notFound = 'Not an escrow of the business.';
const tag = 'Dashboard';
const escrowParams = object({ escrowId: string() });
const releaseAccess = [
  'table:GetItem',
  'table:PutItem',
  'table:Query',
  'table:UpdateItem',
  'schedule:escrowExpiry',
] as const;
const refundAccess = [
  'table:GetItem',
  'table:Query',
  'table:PutItem',
  'table:UpdateItem',
  'table:DeleteItem',
  ...paysOut,
] as const;

export const dashboardEscrowEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  escrowsPage: {
    method: 'GET',
    path: '/dashboard/escrows',
    caller: 'public',
    permission: 'read',
    access: ['table:BatchGetItem', 'table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The business’s escrows: store, amount, payer, status, held until',
    query: object({
      lang: query.shape.lang,
      done: optional(enumOf(['released', 'refunded'])).register(globalRegistry, {
        description: 'What was just done, said at the top.',
      }),
    }),
    answers: { 200: 'The escrows; release and refund for roles that manage escrows.', 303: signedOut },
  },
  confirmReleaseEscrowPage: {
    method: 'GET',
    path: '/dashboard/escrows/{escrowId}/release',
    caller: 'public',
    permission: 'manageEscrows',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before releasing an escrow: what the store receives',
    params: escrowParams,
    query,
    answers: { 200: 'The confirmation.', 303: signedOut, 403: forbidden, 404: notFound, 409: notHeld },
  },
  releaseEscrowPage: {
    method: 'POST',
    path: '/dashboard/escrows/{escrowId}/release',
    caller: 'public',
    permission: 'manageEscrows',
    access: releaseAccess,
    page: true,
    tag,
    summary: 'Release an escrow to its store, as `POST /partner_api/escrows/{id}/release`',
    params: escrowParams,
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the escrows, saying it is done.',
      400: 'A body that is not a form.',
      403: forbidden,
      404: notFound,
      409: notHeld,
    },
  },
  confirmRefundEscrowPage: {
    method: 'GET',
    path: '/dashboard/escrows/{escrowId}/refund',
    caller: 'public',
    permission: 'manageEscrows',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before refunding an escrow: what the payer gets back, and the fee',
    params: escrowParams,
    query,
    answers: { 200: 'The confirmation.', 303: signedOut, 403: forbidden, 404: notFound, 409: notHeld },
  },
  refundEscrowPage: {
    method: 'POST',
    path: '/dashboard/escrows/{escrowId}/refund',
    caller: 'public',
    permission: 'manageEscrows',
    access: refundAccess,
    page: true,
    tag,
    summary: 'Refund an escrow to its payer, as `POST /partner_api/escrows/{id}/refund`',
    params: escrowParams,
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the escrows, saying it is done.',
      400: 'A body that is not a form.',
      403: forbidden,
      404: notFound,
      409: notHeld,
      502: 'The payer’s provider refused the payout at once: the escrow is held again, and the page says so.',
    },
  },
});
