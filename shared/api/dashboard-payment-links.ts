import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text } from '#shared/api/form-fields.ts';

/**
 * The dashboard's payment links (issue 26, item 3): the business's links, the form that makes one,
 * each link's page with what shares it (its address to copy, a WhatsApp message, its QR code as SVG
 * and PNG, a printable A6 card) and its payments, and the switch that turns it off and on. Reading
 * needs the `read` action; making and switching, `manageLinks` (owner, admin), asked first so a
 * refused post (403) reads and writes nothing. Each action goes through the API's own operations
 * (shared/operations/payment-links.ts). As on every dashboard page, a post needs the site's Origin
 * and the session's CSRF token, and the session's every request may move its idle time on.
 */
const lang = optional(enumOf(['fr', 'en'])).register(globalRegistry, {
  description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
});
const query = object({ lang });
const csrf = string().register(globalRegistry, { description: 'The session’s form token (hidden field).' });
const forbidden =
  'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.';
const signedOut = 'No session: to the sign-in page.';
const notFound = 'Not a link of the business.';
const tag = 'Dashboard';
const linkParams = object({ linkId: string() });

export const dashboardPaymentLinkEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  paymentLinksPage: {
    method: 'GET',
    path: '/dashboard/payment-links',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The business’s payment links, newest first',
    query: object({
      lang,
      page: optional(string()).register(globalRegistry, { description: 'The page of 50 links, from 1.' }),
    }),
    answers: { 200: 'The links; the way to make one for roles that may.', 303: signedOut },
  },
  newPaymentLinkPage: {
    method: 'GET',
    path: '/dashboard/payment-links/new',
    caller: 'public',
    permission: 'manageLinks',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The form that makes a payment link',
    query,
    answers: { 200: 'The form.', 303: signedOut, 403: forbidden },
  },
  createPaymentLinkPage: {
    method: 'POST',
    path: '/dashboard/payment-links',
    caller: 'public',
    permission: 'manageLinks',
    access: ['table:ConditionCheckItem', 'table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Make a payment link, as the API makes one',
    query,
    form: object({
      csrf,
      storeId: text(),
      title: text().register(globalRegistry, { description: '1 to 255 characters.' }),
      amount: text().register(globalRegistry, {
        description: 'Whole francs as typed: `1500`, `1 500`; at least 100.',
      }),
      reusable: optional(enumOf(['true', 'false'])).register(globalRegistry, {
        description: '`true`: paid any number of times; single-use otherwise.',
      }),
    }),
    answers: {
      303: 'To the new link’s page.',
      400: 'The form again, with its errors; or a body that is not a form.',
      403: forbidden,
    },
  },
  paymentLinkPage: {
    method: 'GET',
    path: '/dashboard/payment-links/{linkId}',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'A link: its address, its QR code, ways to share it, its switch and its payments',
    params: linkParams,
    query,
    answers: { 200: 'The link’s page.', 303: signedOut, 404: notFound },
  },
  paymentLinkQrCode: {
    method: 'GET',
    path: '/dashboard/payment-links/{linkId}/qr',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The link’s QR code to download, as SVG or PNG',
    params: linkParams,
    query: object({
      lang,
      format: optional(enumOf(['svg', 'png'])).register(globalRegistry, { description: 'SVG by default.' }),
    }),
    answers: { 200: 'The QR code of the link’s address, as an attachment.', 303: signedOut, 404: notFound },
  },
  paymentLinkCardPage: {
    method: 'GET',
    path: '/dashboard/payment-links/{linkId}/card',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'A printable A6 “scan to pay” card of the link',
    params: linkParams,
    query,
    answers: { 200: 'The card, laid out for A6 paper when printed.', 303: signedOut, 404: notFound },
  },
  switchPaymentLinkPage: {
    method: 'POST',
    path: '/dashboard/payment-links/{linkId}/switch',
    caller: 'public',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Switch a link off (payers are refused) or on again',
    permission: 'manageLinks',
    params: linkParams,
    query,
    form: object({ csrf, active: enumOf(['true', 'false']) }),
    answers: {
      303: 'To the link’s page.',
      400: 'A body that is not a form, or `active` missing.',
      403: forbidden,
      404: notFound,
      409: 'A single-use link already paid cannot be switched on: its page, saying so.',
    },
  },
});
