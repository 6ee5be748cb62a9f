import { randomUUID } from 'node:crypto';
import { auditEntryWrite, newAuditEntry } from '#shared/data/audit-entry.ts';
import { listMembers } from '#shared/data/member.ts';
import {
  addPayoutAccountRecord,
  getPayoutAccount,
  listPayoutAccounts,
  removePayoutAccountRecord,
} from '#shared/data/payout-account.ts';
import type { Transfer } from '#shared/data/transfer.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { payoutFeeScheduleFromEnvironment, splitFee } from '#shared/domain/fees.ts';
import type { Cents } from '#shared/domain/money.ts';
import { providerServes } from '#shared/domain/operator-countries.ts';
import { isProviderCode } from '#shared/domain/payment-methods.ts';
import {
  bankIdentifierOf,
  isUsable,
  type PayoutAccount,
  payoutAccountLabel,
  readUemoaIban,
} from '#shared/domain/payout-accounts.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { defaultCountry, isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';
import {
  NothingToWithdraw,
  PayoutAccountCooling,
  PayoutAccountNotFound,
} from '#shared/errors/payout-accounts.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { sendPlatformSms } from '#shared/operations/messages.ts';
import { balanceOf, storeForCollection } from '#shared/operations/stores.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import { localStageName, stageName } from '#shared/stage.ts';

/**
 * A business's own payout accounts and the withdrawals to them (issue 34, item 3). A withdrawal is
 * a transfer to the account, through the transfer path (the reservation, the fee, the provider's
 * payout and its settlement, the transaction list, the webhooks), marked with the account so the
 * ledger books it as a withdrawal and the statement shows it as one.
 */

/** Cooling period of a new payout account, in seconds: the stage's setting, 24 h by default, none on the laptop. */
export function payoutAccountCoolingSeconds(environment: NodeJS.ProcessEnv = process.env): number {
  const value = Number(environment.PAYOUT_ACCOUNT_COOLING_SECONDS);
  if (environment.PAYOUT_ACCOUNT_COOLING_SECONDS && Number.isInteger(value) && value >= 0) return value;
  return stageName() === localStageName ? 0 : 24 * 60 * 60;
}

/** An account as typed, before it is checked: a number and its operator, or a bank account. */
export type PayoutAccountInput =
  | {
      kind: 'mobile';
      holder: string;
      paymentMethod: string;
      number: string;
      /** The country chosen beside the number for its national form (`SN`); else `country`. */
      phoneCountry?: string | undefined;
    }
  | { kind: 'bank'; holder: string; bankName: string; iban: string };

export type PayoutAccountField = 'holder' | 'paymentMethod' | 'number' | 'bankName' | 'iban' | 'kind';
export interface PayoutAccountProblem {
  field: PayoutAccountField;
  rule: 'required' | 'format' | 'max' | 'provider_country';
}

export type CheckedPayoutAccount = Pick<PayoutAccount, 'paymentMethod' | 'identifier' | 'holder'>;

/**
 * The account checked: a number of the zone (a national one read in `country`, the business's
 * first store's) on an operator that serves its country; an IBAN of the UEMOA whose check digits
 * hold. Every problem on its field.
 */
export function checkPayoutAccount(
  input: PayoutAccountInput,
  country: UemoaCountry,
): { account: CheckedPayoutAccount } | { problems: PayoutAccountProblem[] } {
  const problems: PayoutAccountProblem[] = [];
  const holder = input.holder.trim();
  if (!holder) problems.push({ field: 'holder', rule: 'required' });
  else if (holder.length > 255) problems.push({ field: 'holder', rule: 'max' });
  if (input.kind === 'mobile') {
    const method = input.paymentMethod.trim();
    if (!isProviderCode(method)) problems.push({ field: 'paymentMethod', rule: 'required' });
    const readIn = isUemoaCountry(input.phoneCountry) ? input.phoneCountry : country;
    const number = input.number.trim() ? readZoneNumber(input.number, readIn) : undefined;
    if (!input.number.trim()) problems.push({ field: 'number', rule: 'required' });
    else if (!number) problems.push({ field: 'number', rule: 'format' });
    else if (isProviderCode(method) && !providerServes(method, number.country))
      problems.push({ field: 'paymentMethod', rule: 'provider_country' });
    if (problems.length > 0 || !number || !isProviderCode(method)) return { problems };
    return { account: { paymentMethod: method, identifier: { number: number.e164 }, holder } };
  }
  const bankName = input.bankName.trim();
  if (!bankName) problems.push({ field: 'bankName', rule: 'required' });
  else if (bankName.length > 64) problems.push({ field: 'bankName', rule: 'max' });
  const iban = input.iban.trim() ? readUemoaIban(input.iban) : undefined;
  if (!input.iban.trim()) problems.push({ field: 'iban', rule: 'required' });
  else if (!iban) problems.push({ field: 'iban', rule: 'format' });
  if (problems.length > 0 || !iban) return { problems };
  return { account: { paymentMethod: 'bank', identifier: bankIdentifierOf(iban, bankName), holder } };
}

/** Who added it, for the account and the audit log. */
export type AddedBy = { memberId: string; userId: string } | { keyId: string };

/**
 * Registers the account, usable after the stage's cooling period, with its audit entry in the same
 * transaction; then every owner of the business is told by SMS, so an account they did not add is
 * seen (and removed) before its cooling ends. The same number or bank account twice: 409.
 */
export async function addPayoutAccount(
  businessId: string,
  checked: CheckedPayoutAccount,
  addedBy: AddedBy,
  sourceIp: string,
  now = new Date(),
): Promise<PayoutAccount> {
  const account: PayoutAccount = {
    id: randomUUID(),
    businessId,
    ...checked,
    usableFrom: new Date(now.getTime() + payoutAccountCoolingSeconds() * 1000).toISOString(),
    addedBy: 'keyId' in addedBy ? `key:${addedBy.keyId}` : `member:${addedBy.memberId}`,
    createdAt: now.toISOString(),
  };
  const audit = newAuditEntry({
    businessId,
    at: account.createdAt,
    action: 'payout_account_added',
    actor: 'keyId' in addedBy ? {} : addedBy,
    subjectId: account.id,
    detail: `${payoutAccountLabel(account)} (${account.holder})${'keyId' in addedBy ? ` · API key ${addedBy.keyId}` : ''}`,
    sourceIp,
  });
  await addPayoutAccountRecord(account, [auditEntryWrite(audit)]);
  await tellOwners(account);
  return account;
}

/** One SMS to each owner's phone, in French (the zone's language of business). */
async function tellOwners(account: PayoutAccount): Promise<void> {
  const owners = (await listMembers(account.businessId)).filter((member) => member.role === 'owner');
  const when = account.usableFrom.slice(0, 16).replace('T', ' ');
  await Promise.all(
    owners.flatMap((owner) =>
      owner.phone
        ? [
            sendPlatformSms({
              to: owner.phone,
              reference: `payout-account:${account.id}:${owner.id}`,
              body: `Partner Payments : un compte de retrait a été ajouté (${payoutAccountLabel(account)}, ${account.holder}). Il recevra des retraits à partir du ${when} UTC. Si ce n’est pas vous, retirez-le dans le tableau de bord.`,
            }),
          ]
        : [],
    ),
  );
}

export const payoutAccountsOf = (businessId: string) => listPayoutAccounts(businessId);

export async function payoutAccountOf(businessId: string, id: string): Promise<PayoutAccount> {
  const account = await getPayoutAccount(businessId, id);
  if (!account) throw new PayoutAccountNotFound();
  return account;
}

/**
 * Removes the account, with its audit entry in the same transaction (by a member, or by an API key:
 * a removal is as much the owners' business as an addition).
 */
export async function removePayoutAccount(
  businessId: string,
  id: string,
  removedBy: AddedBy,
  sourceIp: string,
): Promise<PayoutAccount> {
  const account = await payoutAccountOf(businessId, id);
  const audit = newAuditEntry({
    businessId,
    at: new Date().toISOString(),
    action: 'payout_account_removed',
    actor: 'keyId' in removedBy ? {} : removedBy,
    subjectId: account.id,
    detail: `${payoutAccountLabel(account)} (${account.holder})${'keyId' in removedBy ? ` · API key ${removedBy.keyId}` : ''}`,
    sourceIp,
  });
  await removePayoutAccountRecord(account, [auditEntryWrite(audit)]);
  return account;
}

const payoutFees = payoutFeeScheduleFromEnvironment();

/** The smallest withdrawal: the transfers' smallest amount. */
export const minWithdrawalCents = 500;

/**
 * "Everything available": the largest whole-franc amount whose fee fits beside it in `available`
 * (the transfer reserves amount + fee), or undefined when not even the smallest withdrawal fits.
 */
export function withdrawableCents(
  availableCents: Cents,
  method: PayoutAccount['paymentMethod'],
): Cents | undefined {
  const rule = payoutFees[method];
  let low = 0;
  let high = Math.floor(availableCents / 100);
  // The fee grows with the amount: a binary search over whole francs finds the largest that fits.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const cents = middle * 100;
    if (cents + splitFee(cents, rule).fee <= availableCents) low = middle;
    else high = middle - 1;
  }
  const cents = low * 100;
  return cents >= minWithdrawalCents ? cents : undefined;
}

export interface WithdrawalInput {
  storeId: string;
  payoutAccountId: string;
  /** Omitted: everything available, less the fee. */
  amountCents?: Cents | undefined;
  reference?: string | undefined;
  description?: string | undefined;
}

/**
 * Moves money from the store to the business's own account, as a transfer to it: refused while the
 * account cools (409 `payout_account_cooling`, nothing written); otherwise the transfer path's
 * rules, balance and idempotency.
 */
export async function withdraw(caller: Caller, input: WithdrawalInput, baseUrl: string): Promise<Transfer> {
  // The store first: a key that may not see it learns nothing of the account either.
  const store = await storeForCollection(caller, input.storeId, undefined);
  const account = await payoutAccountOf(caller.businessId, input.payoutAccountId);
  if (!isUsable(account)) throw new PayoutAccountCooling(account.usableFrom);
  let amountCents = input.amountCents;
  if (amountCents === undefined) {
    const { amount: available } = await balanceOf(caller, store.id);
    amountCents = withdrawableCents(available, account.paymentMethod);
    if (amountCents === undefined) throw new NothingToWithdraw(available);
  }
  return createTransferFor(
    caller,
    {
      storeId: store.id,
      amountCents,
      currency: store.currency,
      description: input.description ?? `Retrait vers ${payoutAccountLabel(account)}`,
      reference: input.reference,
      beneficiary: {
        form: 'inline',
        name: account.holder,
        paymentMethod: account.paymentMethod,
        identifier: account.identifier,
      },
    },
    baseUrl,
    { payoutAccountId: account.id },
  );
}

/**
 * Payout accounts are the business's, not a store's: a key scoped to one store may withdraw from
 * its store to them but not add or remove one (403 `forbidden_action`).
 */
export function requireWholeBusinessKey(caller: Caller): void {
  if (caller.storeId !== undefined)
    throw new ForbiddenAction(
      'A key scoped to one store cannot add or remove the business’s payout accounts',
    );
}

/** The API's body checked as the dashboard's form is: each problem on its field (422). */
export function checkedPayoutAccountBody(body: {
  type: 'mobile_money' | 'bank';
  holder: string;
  paymentMethod?: string | undefined;
  number?: string | undefined;
  bankName?: string | undefined;
  iban?: string | undefined;
}): CheckedPayoutAccount {
  const checked = checkPayoutAccount(
    body.type === 'bank'
      ? { kind: 'bank', holder: body.holder, bankName: body.bankName ?? '', iban: body.iban ?? '' }
      : {
          kind: 'mobile',
          holder: body.holder,
          paymentMethod: body.paymentMethod ?? '',
          number: body.number ?? '',
        },
    // A national number is read as Ivorian, as the contacts' are: an account belongs to the business.
    defaultCountry,
  );
  if ('account' in checked) return checked.account;
  throw new ValidationFailed(
    checked.problems.map(({ field, rule }) => ({
      field,
      rule,
      message: problemText[rule](field),
    })),
  );
}

const problemText: Record<PayoutAccountProblem['rule'], (field: string) => string> = {
  required: (field) => `The ${field} field is required.`,
  format: (field) =>
    field === 'iban'
      ? 'The iban field must be an IBAN of the UEMOA (28 characters) whose check digits hold.'
      : `The ${field} field must be a mobile-money number of the zone.`,
  max: (field) => `The ${field} field is too long.`,
  provider_country: () => 'The operator does not serve the number’s country.',
};

/** The source address an API call came from, for the audit log. */
export const apiSourceOf = (headers: Record<string, string | undefined>) =>
  headers['x-forwarded-for']?.split(',')[0]?.trim() || 'api';
