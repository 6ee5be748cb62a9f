import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text } from '#shared/api/form-fields.ts';

/**
 * The dashboard's SMS page (issue 26, item 6): the SMS balance, the sent messages with their
 * status, and the form that sends one (a check step with its segments and the balance, then the
 * send through the API's message operation). `read` to see, `sendSms` to send (owner, admin).
 */
const tag = 'Dashboard';

export const dashboardSmsEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  smsPage: {
    method: 'GET',
    path: '/dashboard/sms',
    caller: 'public',
    permission: 'read',
    // The SMS account is made, empty, the first time its balance is read (as the API does).
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The SMS balance, the sent messages with their status, the form that sends one',
    query: object({
      lang: optional(enumOf(['fr', 'en'])),
      page: optional(string()).register(globalRegistry, { description: 'The page of the list, from 1.' }),
    }),
    answers: {
      200: 'The balance and a page of messages; the form for roles that may send.',
      303: 'No session: to the sign-in page.',
    },
  },
  sendSmsPage: {
    method: 'POST',
    path: '/dashboard/sms',
    caller: 'public',
    permission: 'sendSms',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Check an SMS (its segments against the balance), then send it on the balance',
    query: object({ lang: optional(enumOf(['fr', 'en'])) }),
    form: object({
      csrf: string(),
      to: text().register(globalRegistry, {
        description:
          'A national number is read in `phoneCountry`, else the country of the business’s first store.',
      }),
      phoneCountry: optional(string()).register(globalRegistry, {
        description: 'The country the form’s select names for a national number (`SN`).',
      }),
      body: text().register(globalRegistry, { description: 'Up to 918 characters.' }),
      confirm: optional(enumOf(['yes', 'change'])).register(globalRegistry, {
        description:
          '`yes` on the check step’s button: send; `change`: the form again to change it. Without it, the check step.',
      }),
    }),
    answers: {
      200: 'The check step: the recipient, the text, its segments and the balance.',
      303: 'Sent: to the SMS page.',
      400: 'The form again, each wrong field named; or a body that is not a form.',
      403: 'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.',
      422: 'The SMS balance does not cover the text: nothing is sent, nothing charged.',
    },
  },
});
