import { getBusiness } from '#shared/data/business.ts';
import { collectedThisMonth } from '#shared/data/collection-ceiling.ts';
import { type DayTotals, latestLines, noMoney, storeDayTotals } from '#shared/data/day-totals.ts';
import { listStores, type Store } from '#shared/data/store.ts';
import { moneyMovements, type TransactionRecord, transactionDay } from '#shared/data/transaction-record.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { collectionCeiling } from '#shared/domain/ceilings.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import type { Cents } from '#shared/domain/money.ts';
import { storeAmounts } from '#shared/domain/wallet.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { type PeriodChange, periodOf, readStore, type StoreReading } from '#shared/operations/statements.ts';

export interface BusinessOverview {
  verificationLevel: number;
  apiAccessEnabled: boolean;
  /** What the business may collect this calendar month (UTC); null: no ceiling. */
  ceiling: Cents | null;
  collected: Cents;
  /**
   * The identity check can be done on this stage: true on every stage since each has an identity
   * vendor (Smile ID on production, which refuses the sandbox's at synth) and its pages.
   */
  identityCheckOffered: boolean;
}

/** The dashboard home's facts: the level, API access, and the month's ceiling and what is used of it. */
export async function businessOverview(member: ActingMember, at = new Date()): Promise<BusinessOverview> {
  const [business, collected] = await Promise.all([
    getBusiness(member.businessId),
    collectedThisMonth(member.businessId, at),
  ]);
  if (!business) throw new BusinessNotFound();
  return {
    verificationLevel: business.verificationLevel,
    apiAccessEnabled: business.apiAccessEnabled,
    ceiling: collectionCeiling(business.verificationLevel),
    collected,
    identityCheckOffered: true,
  };
}

/** The home page's window: today and the 29 days before it. */
export const homeDays = 30;
/** The home page's latest lines. */
export const latestCount = 10;

export type MoneyTotals = DayTotals['money'];

export interface StoreMoney {
  store: Store;
  /** Where the store's times are shown (its day totals are UTC days, as the list's). */
  timeZone: string;
  amounts: ReturnType<typeof storeAmounts>;
  today: MoneyTotals;
  lastDays: MoneyTotals;
  /** Collected per day, oldest first, one entry for each day of the window (0 when none). */
  collectedByDay: { day: string; cents: Cents }[];
  /** Each period's balances and what moved them, as the month's statement reads them. */
  change: Changes;
}

/** Today's and the window's reconciliation: opening + movements (fees apart) − fees = closing. */
export interface Changes {
  today: PeriodChange;
  lastDays: PeriodChange;
}

export interface HomeMoney {
  /** The window's days (UTC), `YYYY-MM-DD`. */
  firstDay: string;
  today: string;
  stores: StoreMoney[];
  /** The business's totals, one per currency its stores keep (one in the franc zone). */
  business: { currency: string; today: MoneyTotals; lastDays: MoneyTotals; change: Changes }[];
  /** The newest lines of the window, newest first, with their store's name and time zone. */
  latest: (TransactionRecord & { storeName: string; timeZone: string })[];
}

const dayMs = 24 * 60 * 60 * 1000;

function addMoney(sum: MoneyTotals, more: MoneyTotals): MoneyTotals {
  const result = noMoney();
  for (const movement of moneyMovements) {
    result[movement] = {
      cents: sum[movement].cents + more[movement].cents,
      count: sum[movement].count + more[movement].count,
    };
  }
  return result;
}

/**
 * The home page's money, at a cost that does not grow with history: the business's stores (one
 * query), and for each store at once its wallets (one query, as the API's balance), its day
 * counters of the last 30 days (one query, at most 30 items), and the same days read again with
 * its wallets' total as the month's statement reads them (`readStore`: strongly consistent, the
 * total before and after, so the reconciliation is exact to the franc: ~2 RCU more per store for
 * 30 busy days, 1 when few moved); then the 10 newest lines, read
 * from the newest days the counters say hold any (at most 10 items). Days are UTC days, as the
 * counters and the transaction list's `startDate`/`endDate`: in the six countries of the zone on
 * UTC they are the store's own days; in Benin and Niger (UTC+1) a day runs from 01:00 to 01:00.
 */
export async function homeMoney(member: ActingMember, at = new Date()): Promise<HomeMoney> {
  const today = transactionDay(at.toISOString());
  const firstDay = transactionDay(new Date(at.getTime() - (homeDays - 1) * dayMs).toISOString());
  const days = Array.from({ length: homeDays }, (_, index) =>
    transactionDay(new Date(Date.parse(`${firstDay}T00:00:00.000Z`) + index * dayMs).toISOString()),
  );
  const stores = (await listStores(member.businessId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const perStore = await Promise.all(
    stores.map(async (store) => {
      const [wallets, counters, reading] = await Promise.all([
        listStoreWallets(member.businessId, store.id),
        storeDayTotals(store.id, firstDay, today),
        readStore(member.businessId, store.id, firstDay),
      ]);
      return { store, wallets, counters, reading };
    }),
  );
  const period = (readings: StoreReading[], first: string): PeriodChange => {
    const { opening, closing, kinds } = periodOf(readings, first, today);
    return { opening, closing, kinds };
  };
  const changes = (readings: StoreReading[]): Changes => ({
    today: period(readings, today),
    lastDays: period(readings, firstDay),
  });
  const linesByDay = new Map<string, number>();
  const storeMoney = perStore.map(({ store, wallets, counters, reading }): StoreMoney => {
    const byDay = new Map(counters.map((counter) => [counter.day, counter]));
    for (const counter of counters)
      linesByDay.set(counter.day, (linesByDay.get(counter.day) ?? 0) + counter.lines);
    return {
      store,
      timeZone: storeTimeZone(store),
      amounts: storeAmounts(wallets),
      today: byDay.get(today)?.money ?? noMoney(),
      lastDays: counters.reduce((sum, counter) => addMoney(sum, counter.money), noMoney()),
      collectedByDay: days.map((day) => ({ day, cents: byDay.get(day)?.money.collected.cents ?? 0 })),
      change: changes([reading]),
    };
  });
  const business = new Map<string, { currency: string; today: MoneyTotals; lastDays: MoneyTotals }>();
  for (const { store, today: storeToday, lastDays } of storeMoney) {
    const sum = business.get(store.currency) ?? {
      currency: store.currency,
      today: noMoney(),
      lastDays: noMoney(),
    };
    business.set(store.currency, {
      currency: store.currency,
      today: addMoney(sum.today, storeToday),
      lastDays: addMoney(sum.lastDays, lastDays),
    });
  }
  const readingsOf = (currency: string) =>
    perStore.filter(({ store }) => store.currency === currency).map(({ reading }) => reading);
  const newestFirst = [...days].reverse().map((day) => ({ day, lines: linesByDay.get(day) ?? 0 }));
  const byId = new Map(storeMoney.map((money) => [money.store.id, money]));
  const latest = (await latestLines(member.businessId, newestFirst, latestCount)).map((line) => ({
    ...line,
    storeName: byId.get(line.storeId)?.store.name ?? '',
    timeZone: byId.get(line.storeId)?.timeZone ?? storeTimeZone({}),
  }));
  return {
    firstDay,
    today,
    stores: storeMoney,
    business: [...business.values()].map((sum) => ({ ...sum, change: changes(readingsOf(sum.currency)) })),
    latest,
  };
}
