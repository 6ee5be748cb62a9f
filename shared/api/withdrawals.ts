import {
  array,
  enum as enumOf,
  extend,
  globalRegistry,
  gte,
  int,
  literal,
  lte,
  maxLength,
  minLength,
  object,
  optional,
  type output,
  string,
  uuid,
} from 'zod/mini';
import { instant } from '#shared/api/common.ts';
import { contactIdentifierSchema } from '#shared/api/contacts.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text, trimmedText } from '#shared/api/form-fields.ts';
import { transferSchema } from '#shared/api/transfers.ts';
import { paysOut } from '#shared/catalogue/access.ts';
import { contactMethods } from '#shared/domain/contacts.ts';
import { maxAmountCents } from '#shared/domain/money.ts';
import type { PayoutAccount } from '#shared/domain/payout-accounts.ts';

/**
 * Withdrawals to the business's own accounts (issue 34, item 3), through the API and the
 * dashboard. An account is registered (the dashboard asks the owner for a fresh SMS code), every
 * owner is told by SMS, and it receives withdrawals after the stage's cooling period. A withdrawal
 * is a transfer to the account: the same reservation, fee, payout, webhooks and transaction-list
 * line, read back with `GET /partner_api/transfers/{id}`.
 */
const tag = 'Withdrawals';

export const createPayoutAccountBody = object({
  type: enumOf(['mobile_money', 'bank']).register(globalRegistry, {
    description: 'A mobile-money number of the zone, or a bank account of the UEMOA.',
  }),
  holder: string().check(minLength(1), maxLength(255)).register(globalRegistry, {
    description: 'Whose account it is, as the operator or the bank knows them.',
  }),
  paymentMethod: optional(string()).register(globalRegistry, {
    description: '`mobile_money`: the operator (`orange`, `wave`, `mtn`, `moov`, `djamo`).',
  }),
  number: optional(string()).register(globalRegistry, {
    description:
      '`mobile_money`: the number, international (`+221771234567`) or national as in Côte d’Ivoire.',
  }),
  bankName: optional(string()).register(globalRegistry, { description: '`bank`: the bank’s name.' }),
  iban: optional(string()).register(globalRegistry, {
    description:
      '`bank`: the IBAN of the UEMOA (28 characters: country, check digits, bank code, agency, account, RIB key); spaces allowed.',
  }),
}).register(globalRegistry, {
  examples: [
    { type: 'mobile_money', holder: 'Awa Diop', paymentMethod: 'wave', number: '+221771234567' },
    {
      type: 'bank',
      holder: 'Boutique Awa SARL',
      bankName: 'Ecobank Sénégal',
      iban: 'SN08 SN010 01522 000123456789 85',
    },
  ],
});

export type CreatePayoutAccountBody = output<typeof createPayoutAccountBody>;

export const payoutAccountSchema = object({
  id: uuid(),
  paymentMethod: enumOf(contactMethods),
  holder: string(),
  identifier: contactIdentifierSchema,
  usableFrom: instant.register(globalRegistry, {
    description: 'From when withdrawals may go there: the stage’s cooling period after it was added.',
  }),
  createdAt: instant,
}).register(globalRegistry, { id: 'PayoutAccount' });

export const payoutAccountResponse = (account: PayoutAccount): output<typeof payoutAccountSchema> => ({
  id: account.id,
  paymentMethod: account.paymentMethod,
  holder: account.holder,
  identifier: account.identifier,
  usableFrom: account.usableFrom,
  createdAt: account.createdAt,
});

export const createWithdrawalBody = object({
  storeId: uuid(),
  payoutAccountId: uuid(),
  amountCents: optional(int().check(gte(500), lte(maxAmountCents))).register(globalRegistry, {
    description: 'Whole francs, in cents. Omitted: everything available, less the fee.',
  }),
  reference: optional(string().check(minLength(1), maxLength(100))),
  description: optional(string().check(maxLength(255))),
});

export const withdrawalSchema = extend(transferSchema, {
  payoutAccountId: uuid(),
}).register(globalRegistry, { id: 'Withdrawal' });

export const withdrawalEndpoints = /* @__PURE__ */ endpointsIn('withdrawals', {
  createPayoutAccount: {
    method: 'POST',
    path: '/partner_api/payout_accounts',
    caller: 'api_key',
    // The owners' SMS leaves through the sms queue (a platform message).
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    tag,
    summary: 'Register one of the business’s own accounts, usable after the cooling period',
    body: createPayoutAccountBody,
    status: 201,
    response: payoutAccountSchema,
    responseDescription: 'The account, with the time from which it receives withdrawals.',
    errors: ['payout_account_exists', 'forbidden_action'],
  },
  listPayoutAccounts: {
    method: 'GET',
    path: '/partner_api/payout_accounts',
    caller: 'api_key',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    tag,
    summary: 'The business’s payout accounts',
    response: array(payoutAccountSchema),
    responseDescription: 'Oldest first.',
  },
  deletePayoutAccount: {
    method: 'DELETE',
    path: '/partner_api/payout_accounts/{id}',
    caller: 'api_key',
    access: ['table:DeleteItem', 'table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    tag,
    summary: 'Remove a payout account',
    params: object({ id: uuid() }),
    response: object({ id: uuid(), deleted: literal(true) }),
    responseDescription: 'Removed.',
    errors: ['payout_account_not_found', 'forbidden_action'],
  },
  createWithdrawal: {
    method: 'POST',
    path: '/partner_api/withdrawals',
    caller: 'api_key',
    access: [
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...paysOut,
    ],
    tag,
    summary: 'Withdraw a store’s money to one of the business’s own accounts',
    body: createWithdrawalBody,
    response: withdrawalSchema,
    responseDescription: 'The transfer that pays the account.',
    idempotent: true,
    errors: [
      'store_not_found',
      'payout_account_not_found',
      'payout_account_cooling',
      'nothing_to_withdraw',
      'insufficient_balance',
      'transfer_exists_with_reference',
      'third_party_payment_provider_error',
      'provider_unavailable',
    ],
  },
  withdrawalsPage: {
    method: 'GET',
    path: '/dashboard/withdrawals',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag: 'Dashboard',
    summary: 'Withdraw to the business’s own accounts; the accounts; the owner’s form that adds one',
    query: object({
      lang: optional(enumOf(['fr', 'en'])),
      sent: optional(string()).register(globalRegistry, {
        description: 'A withdrawal just sent: its notice.',
      }),
      added: optional(string()).register(globalRegistry, {
        description: 'An account just added: its notice.',
      }),
      removed: optional(string()),
      automatic: optional(enumOf(['on', 'off'])).register(globalRegistry, {
        description: 'A store’s automatic settlement just set or turned off: its notice.',
      }),
    }),
    answers: { 200: 'The page.', 303: 'No session: to the sign-in page.' },
  },
  checkWithdrawalPage: {
    method: 'POST',
    path: '/dashboard/withdrawals',
    caller: 'public',
    permission: 'sendMoney',
    // Whether the account's operator is down (pawaPay's availability); a step-up code above the threshold.
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem', 'secret:providers'],
    page: true,
    tag: 'Dashboard',
    summary:
      'Check a withdrawal: the amount (everything available when left empty), the fee, the total; then the send-money confirm step',
    query: object({ lang: optional(enumOf(['fr', 'en'])) }),
    form: object({
      csrf: string(),
      storeId: trimmedText(),
      payoutAccountId: trimmedText(),
      amount: trimmedText().register(globalRegistry, {
        description: 'Francs as typed; empty: everything available, less the fee.',
      }),
    }),
    answers: {
      200: 'The confirm step (it posts to `/dashboard/transfers/confirm`).',
      303: 'No session: to the sign-in page.',
      400: 'The page again with its errors (an account still cooling, the balance too low, the operator down).',
      403: 'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.',
      404: 'A store or account that is not the business’s.',
      429: 'Above the threshold, and three step-up codes were sent in the last 15 minutes.',
    },
  },
  payoutAccountPage: {
    method: 'POST',
    path: '/dashboard/withdrawals/accounts',
    caller: 'public',
    permission: 'managePayoutAccounts',
    access: ['table:DeleteItem', 'table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag: 'Dashboard',
    summary:
      'The owner adds a payout account (`action=check`, then `confirm` with the SMS code) or removes one (`action=remove`, then `confirm=yes`)',
    query: object({ lang: optional(enumOf(['fr', 'en'])) }),
    form: object({
      csrf: string(),
      action: enumOf(['check', 'confirm', 'remove']),
      kind: optional(enumOf(['mobile', 'bank'])),
      holder: text(),
      paymentMethod: text(),
      number: text(),
      phoneCountry: text().register(globalRegistry, {
        description:
          'The country the form’s select names for a national number (`SN`); else the first store’s.',
      }),
      bankName: text(),
      iban: text(),
      attemptId: text(),
      code: text(),
      id: text().register(globalRegistry, { description: '`remove`: the account.' }),
      confirm: optional(enumOf(['yes'])),
    }),
    answers: {
      200: 'The code step (a code was sent to the owner’s phone), or the removal’s confirmation.',
      303: 'Added or removed: to the withdrawals page, with a notice.',
      400: 'The page again with the form’s errors; or the code step with a wrong or expired code.',
      403: 'Not the owner, or a post whose Origin is not the service’s own or without the session’s token: nothing changes.',
      404: 'An account that is not the business’s.',
      409: 'That number or bank account is registered already.',
      429: 'Three codes were sent in the last 15 minutes: the code step says so.',
    },
  },
  automaticSettlementPage: {
    method: 'POST',
    path: '/dashboard/withdrawals/automatic',
    caller: 'public',
    permission: 'managePayoutAccounts',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag: 'Dashboard',
    summary:
      'The owner sets a store’s automatic settlement (`action=save`: every day at `hour` UTC, what is available above `keep` goes to the account) or turns it off (`action=off`)',
    query: object({ lang: optional(enumOf(['fr', 'en'])) }),
    form: object({
      csrf: string(),
      action: optional(enumOf(['save', 'off'])),
      storeId: trimmedText(),
      payoutAccountId: trimmedText(),
      hour: trimmedText().register(globalRegistry, { description: '`save`: 0 to 23, UTC.' }),
      keep: trimmedText().register(globalRegistry, {
        description: '`save`: francs the store keeps, as typed; empty: 0.',
      }),
    }),
    answers: {
      303: 'Set or turned off: to the withdrawals page, with a notice.',
      400: 'The page again with the form’s errors.',
      403: 'Not the owner, or a post whose Origin is not the service’s own or without the session’s token: nothing changes.',
      404: 'A store or account that is not the business’s: nothing is written.',
    },
  },
});
