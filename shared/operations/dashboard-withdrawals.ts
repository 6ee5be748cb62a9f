import type { AutomaticSettlement } from '#shared/data/automatic-settlement.ts';
import type { Store } from '#shared/data/store.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { Cents } from '#shared/domain/money.ts';
import { isUsable, type PayoutAccount, payoutAccountLabel } from '#shared/domain/payout-accounts.ts';
import { automaticSettlementsOf } from '#shared/operations/automatic-settlement.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { memberPhone, type StepUpStart, type TransferForm } from '#shared/operations/dashboard-transfers.ts';
import {
  addPayoutAccount,
  type CheckedPayoutAccount,
  type PayoutAccountInput,
  payoutAccountOf,
  payoutAccountsOf,
  removePayoutAccount,
  withdrawableCents,
} from '#shared/operations/payout-accounts.ts';
import { balanceOf, storesOf } from '#shared/operations/stores.ts';
import { checkStepUpCode, requestStepUpCode, stepUpBinding } from '#shared/operations/transfer-step-up.ts';

/**
 * The dashboard's withdrawals page (issue 34, item 3): the business's payout accounts, the owner's
 * form that adds one (confirmed with a fresh SMS code to the owner's own phone, on the step-up
 * machinery), and the form that withdraws a store's money to a usable one, which is the send-money
 * form's check and confirm steps with the account as beneficiary (`to=account`).
 */
export interface WithdrawalsOverview {
  stores: { store: Store; availableCents: Cents }[];
  accounts: (PayoutAccount & { usable: boolean; label: string })[];
  /** Each store's automatic settlement, when it has one (on or off). */
  automatic: Map<string, AutomaticSettlement>;
  canWithdraw: boolean;
  canManageAccounts: boolean;
}

export async function withdrawalsOverview(
  member: ActingMember,
  now = new Date(),
): Promise<WithdrawalsOverview> {
  const caller = callerForMember(member);
  const [stores, accounts, automatic] = await Promise.all([
    storesOf(caller),
    payoutAccountsOf(member.businessId),
    automaticSettlementsOf(member.businessId),
  ]);
  const balances = await Promise.all(stores.map((store) => balanceOf(caller, store.id)));
  return {
    stores: stores.map((store, index) => ({ store, availableCents: balances[index]?.amount ?? 0 })),
    accounts: accounts.map((account) => ({
      ...account,
      usable: isUsable(account, now),
      label: payoutAccountLabel(account),
    })),
    automatic,
    canWithdraw: roleAllows(member.role, 'sendMoney'),
    canManageAccounts: roleAllows(member.role, 'managePayoutAccounts'),
  };
}

/**
 * The withdrawal form as the send-money form's fields: an empty amount is everything available
 * (less the fee) in the chosen store, to the chosen account.
 */
export async function withdrawalForm(
  member: ActingMember,
  form: Readonly<Record<string, string | undefined>>,
): Promise<TransferForm> {
  const storeId = (form.storeId ?? '').trim();
  const payoutAccountId = (form.payoutAccountId ?? '').trim();
  let amount = (form.amount ?? '').trim();
  if (amount === '' && storeId && payoutAccountId) {
    // Another business's store or account is not found (404), as the check step would find it.
    const [account, { amount: available }] = await Promise.all([
      payoutAccountOf(member.businessId, payoutAccountId),
      balanceOf(callerForMember(member), storeId),
    ]);
    const cents = withdrawableCents(available, account.paymentMethod);
    // Nothing to withdraw: an amount the check step refuses on the balance, with its numbers.
    amount = String(Math.max(5, (cents ?? 0) / 100));
  }
  return {
    storeId,
    to: 'account',
    contactId: '',
    payoutAccountId,
    destinationStoreId: '',
    name: '',
    paymentMethod: '',
    number: '',
    amount,
    description: (form.description ?? '').trim(),
  };
}

/** The form that adds an account, as typed. */
export const payoutAccountFormOf = (
  form: Readonly<Record<string, string | undefined>>,
): PayoutAccountInput =>
  form.kind === 'bank'
    ? { kind: 'bank', holder: form.holder ?? '', bankName: form.bankName ?? '', iban: form.iban ?? '' }
    : {
        kind: 'mobile',
        holder: form.holder ?? '',
        paymentMethod: form.paymentMethod ?? '',
        number: form.number ?? '',
        phoneCountry: form.phoneCountry ?? '',
      };

/** What the code confirms: this member adding this very account. */
const bindingOf = (member: ActingMember, account: CheckedPayoutAccount) =>
  stepUpBinding({
    businessId: member.businessId,
    memberId: member.memberId,
    payoutAccount: { method: account.paymentMethod, identifier: account.identifier, holder: account.holder },
  });

/** Sends the owner's own phone the code that confirms adding `account`. */
export async function startPayoutAccountCode(
  member: ActingMember,
  account: CheckedPayoutAccount,
  input: { sourceIp: string; language: Language },
): Promise<StepUpStart> {
  const phone = await memberPhone(member);
  if (!phone) return { outcome: 'no_phone' };
  const sent = await requestStepUpCode({
    phone,
    binding: bindingOf(member, account),
    purpose: `${payoutAccountLabel(account)} (${account.holder})`,
    confirming: 'payoutAccount',
    address: input.sourceIp,
    language: input.language,
  });
  return sent.outcome === 'sent' ? { ...sent, phone } : sent;
}

export type PayoutAccountConfirmation =
  | { outcome: 'added'; account: PayoutAccount }
  | { outcome: 'code_wrong'; triesLeft: number }
  | { outcome: 'code_malformed' }
  | { outcome: 'code_ended' };

/** The code checked for this account (used once), then the account added and the owners told. */
export async function confirmPayoutAccount(
  member: ActingMember,
  account: CheckedPayoutAccount,
  input: { attemptId: string; code: string; sourceIp: string },
): Promise<PayoutAccountConfirmation> {
  const checked = await checkStepUpCode(member, {
    attemptId: input.attemptId,
    binding: bindingOf(member, account),
    code: input.code,
    sourceIp: input.sourceIp,
  });
  if (checked.outcome === 'wrong') return { outcome: 'code_wrong', triesLeft: checked.triesLeft };
  if (checked.outcome === 'malformed') return { outcome: 'code_malformed' };
  if (checked.outcome === 'ended') return { outcome: 'code_ended' };
  const added = await addPayoutAccount(
    member.businessId,
    account,
    { memberId: member.memberId, userId: member.userId },
    input.sourceIp,
  );
  return { outcome: 'added', account: added };
}

/** Removes one of the business's accounts (404 for another's), recorded in the audit log. */
export const removePayoutAccountFor = (member: ActingMember, id: string, sourceIp: string) =>
  removePayoutAccount(member.businessId, id, { memberId: member.memberId, userId: member.userId }, sourceIp);
