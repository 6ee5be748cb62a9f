import {
  type AutomaticSettlement,
  getAutomaticSettlement,
  listAutomaticSettlements,
  putAutomaticSettlement,
} from '#shared/data/automatic-settlement.ts';
import { readFrancs } from '#shared/domain/franc-amounts.ts';
import { type Cents, maxAmountCents } from '#shared/domain/money.ts';
import { payoutAccountLabel } from '#shared/domain/payout-accounts.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { auditWriteFor } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { payoutAccountOf } from '#shared/operations/payout-accounts.ts';
import { storesOf } from '#shared/operations/stores.ts';
import { formatAmount } from '#shared/pages/format.ts';

/**
 * Automatic settlement per store (issue 34, item 3), as the owner sets it on the withdrawals page:
 * a store, one of the business's payout accounts, an hour of the day (UTC) and an amount the store
 * keeps. The hourly run that pays it is shared/settlement/automatic-settlement.ts.
 */

export type AutomaticSettlementProblem =
  | { field: 'storeId' | 'payoutAccountId' | 'hour'; rule: 'required' }
  | { field: 'keep'; rule: 'format' | 'max' };

export interface AutomaticSettlementForm {
  storeId: string;
  payoutAccountId: string;
  hour: number;
  keepCents: Cents;
}

/** The owner's form read: a store, an account, an hour 0–23, an amount kept in francs (empty: 0). */
export function readAutomaticSettlementForm(
  form: Readonly<Record<string, string | undefined>>,
): { setting: AutomaticSettlementForm } | { problems: AutomaticSettlementProblem[] } {
  const problems: AutomaticSettlementProblem[] = [];
  const storeId = (form.storeId ?? '').trim();
  const payoutAccountId = (form.payoutAccountId ?? '').trim();
  const hourText = (form.hour ?? '').trim();
  const keepText = (form.keep ?? '').trim();
  if (!storeId) problems.push({ field: 'storeId', rule: 'required' });
  if (!payoutAccountId) problems.push({ field: 'payoutAccountId', rule: 'required' });
  const hour = /^\d{1,2}$/.test(hourText) ? Number(hourText) : Number.NaN;
  if (!(hour >= 0 && hour <= 23)) problems.push({ field: 'hour', rule: 'required' });
  const keepCents = keepText === '' ? 0 : readFrancs(keepText);
  if (keepCents === undefined) problems.push({ field: 'keep', rule: 'format' });
  else if (keepCents > maxAmountCents) problems.push({ field: 'keep', rule: 'max' });
  if (problems.length > 0 || keepCents === undefined) return { problems };
  return { setting: { storeId, payoutAccountId, hour, keepCents } };
}

/** The business's settings, by store. */
export async function automaticSettlementsOf(businessId: string): Promise<Map<string, AutomaticSettlement>> {
  const settings = await listAutomaticSettlements(businessId);
  return new Map(settings.map((setting) => [setting.storeId, setting]));
}

/**
 * The owner sets the store's automatic settlement: the store and the account must be the
 * business's (404 otherwise, nothing written); an account still cooling may be chosen, the runs
 * skip it until it is usable. Recorded in the audit log in the same transaction.
 */
export async function setAutomaticSettlement(
  member: ActingMember,
  input: AutomaticSettlementForm,
  context: { baseUrl: string; sourceIp: string },
  now = new Date(),
): Promise<AutomaticSettlement> {
  const store = await storeOfMember(member, input.storeId);
  const account = await payoutAccountOf(member.businessId, input.payoutAccountId);
  const setting: AutomaticSettlement = {
    businessId: member.businessId,
    storeId: store.id,
    payoutAccountId: account.id,
    hour: input.hour,
    keepCents: input.keepCents,
    enabled: true,
    setBy: `member:${member.memberId}`,
    memberId: member.memberId,
    baseUrl: context.baseUrl,
    updatedAt: now.toISOString(),
  };
  await putAutomaticSettlement(setting, [
    auditWriteFor(
      member,
      {
        action: 'automatic_settlement_changed',
        subjectId: store.id,
        detail: `${store.name} → ${payoutAccountLabel(account)}, ${String(input.hour).padStart(2, '0')}:00 UTC, ${formatAmount(input.keepCents, store.currency)} kept`,
        sourceIp: context.sourceIp,
      },
      now,
    ),
  ]);
  return setting;
}

/** The owner turns the store's automatic settlement off (nothing to do when it has none). */
export async function turnOffAutomaticSettlement(
  member: ActingMember,
  storeId: string,
  context: { sourceIp: string },
  now = new Date(),
): Promise<void> {
  const store = await storeOfMember(member, storeId);
  const setting = await getAutomaticSettlement(member.businessId, store.id);
  if (!setting?.enabled) return;
  await putAutomaticSettlement(
    {
      ...setting,
      enabled: false,
      setBy: `member:${member.memberId}`,
      memberId: member.memberId,
      updatedAt: now.toISOString(),
    },
    [
      auditWriteFor(
        member,
        {
          action: 'automatic_settlement_changed',
          subjectId: store.id,
          detail: `${store.name}: off`,
          sourceIp: context.sourceIp,
        },
        now,
      ),
    ],
  );
}

async function storeOfMember(member: ActingMember, storeId: string) {
  const store = (await storesOf(callerForMember(member))).find((each) => each.id === storeId);
  if (!store) throw new StoreNotFound();
  return store;
}
