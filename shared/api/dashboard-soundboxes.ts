import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { startsCollections } from '#shared/catalogue/access.ts';

/**
 * The dashboard's soundboxes (issue 26, item 6): each terminal with its store, online or offline
 * and last seen (as `GET /partner_api/devices` says), its last payment, and "show a test QR": a
 * real soundbox payment request of the smallest amount (1 F CFA), labelled as a test, made and
 * pushed to the device by the API's own operations (`createPaymentRequestFor`, `showOnDevice`).
 * Reading needs `read`; the test QR needs `requestPayment` (owner, admin), since it is a payment
 * request. A post needs the site's Origin and the session's CSRF token; another business's
 * device is 404.
 */
const query = object({
  lang: optional(enumOf(['fr', 'en'])).register(globalRegistry, {
    description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
  }),
});
const csrf = string().register(globalRegistry, { description: 'The session’s form token (hidden field).' });
const tag = 'Dashboard';

export const dashboardSoundboxEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  soundboxesPage: {
    method: 'GET',
    path: '/dashboard/soundboxes',
    caller: 'public',
    permission: 'read',
    access: ['table:BatchGetItem', 'table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The business’s soundboxes: store, online or offline, last seen, last payment',
    query: object({
      lang: optional(enumOf(['fr', 'en'])),
      sent: optional(string()).register(globalRegistry, {
        description: 'The device a test QR was just sent to.',
      }),
      online: optional(enumOf(['0', '1'])).register(globalRegistry, {
        description: 'Whether it was online then.',
      }),
    }),
    answers: {
      200: 'The soundboxes; the test QR button for roles that ask for payments.',
      303: 'No session: to the sign-in page.',
    },
  },
  showTestQrPage: {
    method: 'POST',
    path: '/dashboard/soundboxes/{deviceId}/test-qr',
    caller: 'public',
    permission: 'requestPayment',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:DeleteItem',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      ...startsCollections,
      'device:push',
    ],
    page: true,
    tag,
    summary: 'Show a test QR on a soundbox: a 1 F CFA payment request labelled as a test',
    params: object({ deviceId: string() }),
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the soundboxes, saying the test QR was sent.',
      400: 'A body that is not a form.',
      403: 'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.',
      404: 'Not a soundbox of the business.',
      422: 'The business may not collect yet (its collection ceiling): the page says so, nothing is sent.',
    },
  },
});
