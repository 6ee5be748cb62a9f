import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text } from '#shared/api/form-fields.ts';

/**
 * The business dashboard (DESIGN §13), part 1: the way in (one flow for sign-in and sign-up, by a
 * code sent to the phone), the session and the home page. Pages read their few fields themselves,
 * so these schemas describe rather than validate. Every post is checked for its Origin, and a
 * signed-in post for its CSRF token (`shared/http/dashboard-session.ts`).
 */
export const dashboardQuery = object({
  lang: optional(enumOf(['fr', 'en'])).register(globalRegistry, {
    description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
  }),
});
export const csrf = string().register(globalRegistry, {
  description: 'The session’s form token (hidden field).',
});
export const forbidden =
  'A post whose Origin is not the service’s own, or without the session’s token: nothing changes.';
const tag = 'Dashboard';

export const dashboardEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  dashboardHome: {
    method: 'GET',
    path: '/dashboard',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The dashboard’s home: each store’s money and latest transactions, the business’s ceiling',
    query: dashboardQuery,
    answers: {
      200: 'Each store’s balances and day totals with a 30-day chart, the 10 latest transactions, the business’s level, API access and ceiling.',
      303: 'No session: to the sign-in page; no business chosen: to the businesses page.',
    },
  },
  signInPage: {
    method: 'GET',
    path: '/dashboard/sign-in',
    caller: 'public',
    access: [],
    page: true,
    tag,
    summary: 'Continue with your phone: sign in or sign up',
    query: dashboardQuery,
    answers: { 200: 'The phone field.' },
  },
  submitSignInPage: {
    method: 'POST',
    path: '/dashboard/sign-in',
    caller: 'public',
    access: ['table:PutItem', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Send a sign-in code to the phone',
    query: dashboardQuery,
    form: object({
      phone: text(),
      /** The country a national number is read in (`SN`); pre-set from the browser's region. */
      phoneCountry: optional(string()),
    }),
    answers: {
      303: 'The code was sent: to the code page, with the attempt’s cookie.',
      400: 'Not a phone number: the page again, with the error.',
      403: forbidden,
      429: 'A limit on codes (per phone, per address, or the stage’s hourly cap).',
    },
  },
  signInCodePage: {
    method: 'GET',
    path: '/dashboard/sign-in/code',
    caller: 'public',
    access: [],
    page: true,
    tag,
    summary: 'The code field',
    query: dashboardQuery,
    answers: { 200: 'The code field.' },
  },
  submitSignInCodePage: {
    method: 'POST',
    path: '/dashboard/sign-in/code',
    caller: 'public',
    access: ['table:DeleteItem', 'table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Check the code: a session, or the sign-up form for a new phone',
    query: dashboardQuery,
    form: object({ code: text().register(globalRegistry, { description: 'The six digits sent by SMS.' }) }),
    answers: {
      303: 'A known phone: to the dashboard with a new session; a new phone: to the sign-up form.',
      400: 'A wrong code (the tries left), or one no longer valid (five tries, used, or expired).',
      403: forbidden,
    },
  },
  signUpPage: {
    method: 'GET',
    path: '/dashboard/sign-up',
    caller: 'public',
    access: ['table:GetItem'],
    page: true,
    tag,
    summary: 'The new business’s form, once the phone is verified',
    query: dashboardQuery,
    answers: { 200: 'The form.', 303: 'No verified phone: to the sign-in page.' },
  },
  submitSignUpPage: {
    method: 'POST',
    path: '/dashboard/sign-up',
    caller: 'public',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Create the business (verification level 0, no API access yet) and sign in',
    query: dashboardQuery,
    form: object({
      firstName: text(),
      lastName: text(),
      businessName: text(),
      activityId: text().register(globalRegistry, {
        description: 'An id of `GET /partner_api/activities`.',
      }),
      storeName: text(),
    }),
    answers: {
      303: 'To the dashboard with a new session; to the sign-in page when the verified phone has lapsed.',
      400: 'The form again, with its errors.',
      403: forbidden,
    },
  },
  signOut: {
    method: 'POST',
    path: '/dashboard/sign-out',
    caller: 'public',
    access: ['table:GetItem', 'table:UpdateItem', 'table:DeleteItem'],
    page: true,
    tag,
    summary: 'End the session',
    query: dashboardQuery,
    form: object({ csrf }),
    answers: {
      303: 'To the sign-in page, the session deleted.',
      400: 'A body that is not a form.',
      403: forbidden,
    },
  },
});
