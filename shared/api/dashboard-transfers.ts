import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text, trimmedText } from '#shared/api/form-fields.ts';
import { paysOut } from '#shared/catalogue/access.ts';

/**
 * The dashboard's "Send money" pages (issue 26, item 5): transfers from a store to a saved contact,
 * a new beneficiary or another store of the business, through the API's `createTransferFor` and its
 * idempotency; a fresh SMS code above the owner's threshold (step-up); the business's contacts.
 * Every page asks the member's role first: `read` to see, `sendMoney` (owner, admin) to send, add
 * or remove a contact, `setStepUpThreshold` (owner) for the threshold. A post needs the site's
 * Origin and the session's CSRF token.
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
const notOurs = 'A store or contact that is not the business’s.';
const tag = 'Dashboard';
/** Writing a step-up code with its limits, and sending its SMS through the `sms` queue. */
const transferForm = {
  csrf,
  storeId: trimmedText(),
  to: optional(enumOf(['contact', 'new', 'store', 'account'])).register(globalRegistry, {
    description: '`account`: a withdrawal to one of the business’s own payout accounts (`payoutAccountId`).',
  }),
  contactId: trimmedText(),
  payoutAccountId: trimmedText(),
  destinationStoreId: trimmedText(),
  name: trimmedText(),
  paymentMethod: trimmedText(),
  number: trimmedText().register(globalRegistry, {
    description: 'The new beneficiary’s number, read in the store’s country (`07 00 00 00 01`).',
  }),
  amount: trimmedText().register(globalRegistry, { description: 'Francs as typed: `1 500` or `1500`.' }),
  description: trimmedText(),
  phoneCountry: trimmedText().register(globalRegistry, {
    description: 'The country the form’s select names for a new beneficiary’s national number (`SN`).',
  }),
};

export const dashboardTransferEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  transfersPage: {
    method: 'GET',
    path: '/dashboard/transfers',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The latest transfers with their statuses, and the step-up threshold',
    query,
    answers: { 200: 'The transfers; the threshold’s form for the owner.', 303: signedOut },
  },
  newTransferPage: {
    method: 'GET',
    path: '/dashboard/transfers/new',
    caller: 'public',
    permission: 'sendMoney',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The form that sends money (prefilled from its query, e.g. `?to=contact&contactId=`)',
    query,
    answers: { 200: 'The form.', 303: signedOut, 403: forbidden },
  },
  checkTransferPage: {
    method: 'POST',
    path: '/dashboard/transfers/new',
    caller: 'public',
    permission: 'sendMoney',
    // The providers' secret: whether the beneficiary's operator is down (pawaPay's availability).
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem', 'secret:providers'],
    page: true,
    tag,
    summary:
      'Check your answers: the amount, the fee and the total debited; above the threshold, an SMS code is sent',
    query,
    form: object(transferForm),
    answers: {
      200: 'The confirm step.',
      303: signedOut,
      400: 'The form again, with its errors (an unserved number, the balance too low, the operator down).',
      403: forbidden,
      404: notOurs,
      429: 'Above the threshold, and three step-up codes were sent in the last 15 minutes: the check step, saying so.',
    },
  },
  confirmTransferPage: {
    method: 'POST',
    path: '/dashboard/transfers/confirm',
    caller: 'public',
    permission: 'sendMoney',
    access: [
      'table:DeleteItem',
      'table:GetItem',
      'table:PutItem',
      'table:Query',
      'table:UpdateItem',
      ...paysOut,
    ],
    page: true,
    tag,
    summary: 'Send the money, once per confirm form; the SMS code above the threshold',
    query,
    form: object({
      ...transferForm,
      idempotencyKey: string().register(globalRegistry, {
        description: 'The confirm form’s key: a second post gets the first answer.',
      }),
      attemptId: text(),
      code: text(),
    }),
    answers: {
      303: 'Sent: to the transfers, with its status.',
      400: 'The confirm step again: a wrong, used or expired code.',
      403: forbidden,
      404: notOurs,
      409: 'The same confirm form is being sent at this very moment.',
      422: 'The balance no longer covers it, or the form was used for another transfer: nothing sent.',
      429: 'The threshold came down since the check step and no more codes may be sent now.',
      503: 'The beneficiary’s operator went down since the check step: nothing sent, the page says so.',
    },
  },
  setStepUpThresholdPage: {
    method: 'POST',
    path: '/dashboard/transfers/threshold',
    caller: 'public',
    permission: 'setStepUpThreshold',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The owner sets the amount above which a transfer asks for an SMS code',
    query,
    form: object({ csrf, threshold: text() }),
    answers: { 303: 'To the transfers.', 400: 'Not an amount.', 403: forbidden },
  },
  contactsPage: {
    method: 'GET',
    path: '/dashboard/contacts',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The business’s contacts, and the form that adds one',
    query,
    answers: { 200: 'The contacts.', 303: signedOut },
  },
  addContactPage: {
    method: 'POST',
    path: '/dashboard/contacts',
    caller: 'public',
    permission: 'sendMoney',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Add a contact (a mobile-money number the operator serves)',
    query,
    form: object({
      csrf,
      name: trimmedText(),
      paymentMethod: trimmedText(),
      number: trimmedText(),
      /** The country a national number is read in (`SN`); the first store's when left out. */
      phoneCountry: trimmedText(),
    }),
    answers: { 303: 'To the contacts.', 400: 'The form again, with its errors.', 403: forbidden },
  },
  confirmRemoveContactPage: {
    method: 'GET',
    path: '/dashboard/contacts/{contactId}/remove',
    caller: 'public',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before removing a contact: who, and what it changes',
    permission: 'sendMoney',
    params: object({ contactId: string() }),
    query,
    answers: {
      200: 'The confirmation.',
      303: signedOut,
      403: forbidden,
      404: 'Not a contact of the business.',
    },
  },
  removeContactPage: {
    method: 'POST',
    path: '/dashboard/contacts/{contactId}/remove',
    caller: 'public',
    permission: 'sendMoney',
    access: ['table:DeleteItem', 'table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Remove a contact',
    params: object({ contactId: string() }),
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the contacts, saying it was removed.',
      400: 'A body that is not a form.',
      403: forbidden,
      404: 'Not a contact of the business.',
    },
  },
});
