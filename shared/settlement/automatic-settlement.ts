import {
  type AutomaticSettlement,
  automaticSettlementsAt,
  markAutomaticSettlementRun,
} from '#shared/data/automatic-settlement.ts';
import { getBusiness } from '#shared/data/business.ts';
import { getPayoutAccount } from '#shared/data/payout-account.ts';
import type { Caller } from '#shared/domain/caller.ts';
import type { Cents } from '#shared/domain/money.ts';
import { isUsable, payoutAccountLabel } from '#shared/domain/payout-accounts.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { PayoutAccountNotFound } from '#shared/errors/payout-accounts.ts';
import { TransferExistsWithReference } from '#shared/errors/transfers.ts';
import { logger } from '#shared/logger.ts';
import { withdraw, withdrawableCents } from '#shared/operations/payout-accounts.ts';
import { balanceOf } from '#shared/operations/stores.ts';

/**
 * The hourly run of automatic settlement (issue 34, item 3; the settings:
 * shared/operations/automatic-settlement.ts). Every day at the hour the owner chose (UTC), what a
 * store has available above the amount it keeps goes to the chosen payout account, as a withdrawal
 * through `withdraw` (the transfer path: reservation, fee, payout, webhooks, the transaction list).
 * Each store's day has one reference, `auto-<storeId>-<YYYY-MM-DD>`, claimed by the transfer path:
 * a retried or doubled run, or a setting changed after the day's withdrawal, never pays twice (the
 * claim refuses the second with `transfer_exists_with_reference`, taken here as done).
 *
 * Cost per run: one query of the sparse index's partition of this hour and one of the hour before
 * (0.5 RCU each when empty, ~0.1 RCU per setting found: shared/data/automatic-settlement.ts), then
 * per setting not yet dealt with that day: the business, the account and the wallets (~1.5 RCU),
 * the withdrawal's transaction when there is one, and the day's mark (1 WCU, 2 with the index).
 */

/** The reference of a store's automatic withdrawal on a UTC day: one a day, whatever runs. */
export const automaticSettlementReference = (storeId: string, day: string) => `auto-${storeId}-${day}`;

export type AutomaticSettlementOutcome =
  | 'withdrawn'
  | 'already_done'
  | 'nothing_to_withdraw'
  | 'account_cooling'
  | 'account_removed'
  | 'store_gone';

export interface AutomaticSettlementReport {
  found: number;
  withdrawn: number;
  skipped: number;
  failed: number;
}

/**
 * The hourly run: the settings due this hour, and those of the hour before that no run dealt with
 * (an hourly tick lands anywhere in its hour, and may land twice in one or miss one; Lambda retries
 * a failed run a few minutes later). Each is settled once and marked done for its day, but for a
 * failure or an account still cooling, which the next run tries again.
 */
export async function settleDueStores(now = new Date()): Promise<AutomaticSettlementReport> {
  const report: AutomaticSettlementReport = { found: 0, withdrawn: 0, skipped: 0, failed: 0 };
  for (const hoursAgo of [1, 0]) {
    const due = new Date(now.getTime() - hoursAgo * 3_600_000);
    const day = due.toISOString().slice(0, 10);
    let after: Record<string, unknown> | undefined;
    do {
      const page = await automaticSettlementsAt(due.getUTCHours(), after);
      after = page.next;
      for (const setting of page.settings) {
        if (setting.lastRunOn === day) continue;
        report.found++;
        try {
          const outcome = await settleStore(setting, day, now);
          if (outcome === 'withdrawn') report.withdrawn++;
          else report.skipped++;
          // An account still cooling is tried again by the runs left in the window (this hour's and
          // the next's): one that becomes usable meanwhile is paid then, and otherwise tomorrow.
          if (outcome !== 'account_cooling') await markAutomaticSettlementRun(setting, day);
        } catch (error) {
          // Left unmarked: the next run tries again, and the day's reference keeps it to one payment.
          report.failed++;
          logger.error('automatic settlement failed', {
            businessId: setting.businessId,
            storeId: setting.storeId,
            error: error as Error,
          });
        }
      }
    } while (after);
  }
  return report;
}

/**
 * One store's day: (available − kept) less the fee goes to the account, when that reaches the
 * smallest withdrawal; a cooling or removed account is skipped. The withdrawal is the member's who
 * set it, as a whole-business caller of the dashboard's kind.
 */
export async function settleStore(
  setting: AutomaticSettlement,
  day: string,
  now = new Date(),
): Promise<AutomaticSettlementOutcome> {
  const [business, account] = await Promise.all([
    getBusiness(setting.businessId),
    getPayoutAccount(setting.businessId, setting.payoutAccountId),
  ]);
  if (!business) return 'store_gone';
  if (!account) return 'account_removed';
  if (!isUsable(account, now)) return 'account_cooling';
  const caller: Caller = {
    businessId: setting.businessId,
    keyId: `automatic-settlement:${setting.storeId}`,
    keyKind: 'platform',
    memberId: setting.memberId,
    isServiceProvider: business.isServiceProvider,
    verificationLevel: business.verificationLevel,
  };
  let available: Cents;
  try {
    available = (await balanceOf(caller, setting.storeId)).amount;
  } catch (error) {
    if (error instanceof StoreNotFound) return 'store_gone';
    throw error;
  }
  const amountCents = withdrawableCents(available - setting.keepCents, account.paymentMethod);
  if (amountCents === undefined) return 'nothing_to_withdraw';
  try {
    await withdraw(
      caller,
      {
        storeId: setting.storeId,
        payoutAccountId: account.id,
        amountCents,
        reference: automaticSettlementReference(setting.storeId, day),
        description: `Versement automatique vers ${payoutAccountLabel(account)}`,
      },
      setting.baseUrl,
    );
    return 'withdrawn';
  } catch (error) {
    if (error instanceof TransferExistsWithReference) return 'already_done';
    if (error instanceof PayoutAccountNotFound) return 'account_removed';
    throw error;
  }
}
