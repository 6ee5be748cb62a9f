import { describe, expect, it } from 'vitest';
import { emptyScope, LedgerBooks } from '#shared/audit/ledger-audit.ts';
import { accounts } from '#shared/domain/ledger.ts';

// The audit's books fed item by item, as the full audit (a scan) and the simulation's audit after
// each operation (the items it wrote) feed them; the items are shaped as the table holds them.
const store = { businessId: 'b1', storeId: 's1' };
const wallet = accounts.wallet(store.businessId, store.storeId, 'operating');
const otherWallet = accounts.wallet('b2', 's2', 'operating');

const walletKey = (businessId: string, storeId: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `WALLET#${storeId}#operating`,
});
const walletItem = (businessId: string, storeId: string, total: number, fees = 0) => ({
  ...walletKey(businessId, storeId),
  entity: 'wallet',
  businessId,
  storeId,
  kind: 'operating',
  total,
  blocked: 0,
  available: total,
  ...(fees ? { 'share#platform:fees': fees } : {}),
});
const entryItem = (id: string, postings: { account: string; amount: number }[]) => ({
  pk: `ENTRY#${id}`,
  sk: 'ENTRY',
  entity: 'journal_entry',
  id,
  kind: 'payment',
  cause: 'test',
  createdAt: '2026-11-23T00:00:00.000Z',
  postings,
});
const keyOf = (item: { pk: string; sk: string }) => ({ pk: item.pk, sk: item.sk });

function payment(books: LedgerBooks, id: string, net: number, fee: number) {
  const entry = entryItem(id, [
    { account: accounts.providerClearing('wave'), amount: -(net + fee) },
    { account: wallet, amount: net },
    { account: accounts.platformFees, amount: fee },
  ]);
  // The store's day counter, which the entry's transaction adds its statement to.
  const counter = { pk: `TXCOUNT#${store.storeId}`, sk: entry.createdAt.slice(0, 10) };
  books.put(counter, {
    ...counter,
    entity: 'transaction_counter',
    'st:payment:in': net + fee,
    'st:payment:fee': fee,
    'st:payment:n': 1,
    'st:net:operating': net,
  });
  return books.put(keyOf(entry), entry);
}

describe('the audit books', () => {
  it('check only what a change touched, and find a wallet that moved without an entry there', () => {
    const books = new LedgerBooks({ remember: true });
    books.put(walletKey('b2', 's2'), walletItem('b2', 's2', 0));
    const scope = payment(books, 'e1', 970, 30);
    const walletScope = books.put(walletKey('b1', 's1'), walletItem('b1', 's1', 970, 30));
    expect(scope.accounts).toContain(wallet);
    expect(books.check()).toEqual([
      expect.objectContaining({ kind: 'balance_differs_from_postings', subject: 'clearing:wave' }),
      expect.objectContaining({ kind: 'share_differs_from_postings', subject: `clearing:wave on ${wallet}` }),
    ]);

    // The provider's clearing share is booked on the wallet's item too: the corrected item clears it.
    const fixed = { ...walletItem('b1', 's1', 970, 30), 'share#clearing:wave': -1000 };
    books.put(walletKey('b1', 's1'), fixed);
    expect(books.check()).toEqual([]);

    // A defect adds a cent to the wallet: found when the check looks at that wallet, not elsewhere.
    const touched = books.put(walletKey('b1', 's1'), { ...fixed, total: 971, available: 971 });
    expect(books.check(touched)).toEqual([
      { kind: 'balance_differs_from_postings', subject: wallet, detail: 'total 971, postings 970' },
      // Nor do its statement's days add up to it any more.
      {
        kind: 'day_counters_differ_from_wallet',
        subject: wallet,
        detail: 'day counters add up to 970, total 971',
      },
    ]);
    const elsewhere = books.put(walletKey('b2', 's2'), walletItem('b2', 's2', 0));
    expect(elsewhere.accounts).toEqual(new Set([otherWallet]));
    expect(books.check(elsewhere)).toEqual([]);
    expect(walletScope.accounts).toContain(wallet);
  });

  it('count an entry once however often the same item is put, and report one that does not balance', () => {
    const books = new LedgerBooks({ remember: true });
    const entry = entryItem('e2', [
      { account: accounts.sandboxFunding, amount: -100 },
      { account: accounts.platformFees, amount: 99 },
    ]);
    books.put(keyOf(entry), entry);
    books.put(keyOf(entry), entry);
    const report = books.report();
    expect(report.entries).toBe(1);
    expect(report.sumOfAllPostings).toBe(-1);
    expect(books.check(emptyScope())).toEqual([
      { kind: 'unbalanced_entry', subject: 'e2', detail: 'postings sum to -1' },
      { kind: 'postings_do_not_sum_to_zero', subject: 'ledger', detail: 'all postings sum to -1' },
    ]);
  });

  it('hold an SMS balance to its top-ups less the segments of its charged messages not given back', () => {
    const books = new LedgerBooks({ remember: true });
    const account = {
      pk: 'BIZ#b1',
      sk: 'MSGACCOUNT',
      entity: 'message_account',
      businessId: 'b1',
      smsBalance: 10,
    };
    books.put(account, account);
    books.put({ pk: 'BIZ#b1', sk: 'SMSCREDIT#t1' }, { entity: 'sms_credit', entryId: 't1', segments: 10 });
    expect(books.check()).toEqual([]);

    const message = { entity: 'message', businessId: 'b1', charged: true, segments: 3, status: 'pending' };
    const scope = books.put({ pk: 'BIZ#b1', sk: 'MSG#m1' }, message);
    expect(scope.smsBusinesses).toEqual(new Set(['b1']));
    // Recorded without its charge:
    expect(books.check(scope)).toEqual([
      expect.objectContaining({ kind: 'sms_balance_differs_from_credits_and_messages', subject: 'sms:b1' }),
    ]);
    books.put(account, { ...account, smsBalance: 7 });
    expect(books.check(scope)).toEqual([]);

    // Given back when it failed before the carrier: the balance must have its segments again.
    books.put({ pk: 'BIZ#b1', sk: 'MSG#m1' }, { ...message, status: 'failed', refundedAt: 'now' });
    expect(books.check(scope)).toHaveLength(1);
    books.put(account, { ...account, smsBalance: 10 });
    expect(books.check(scope)).toEqual([]);

    books.put(account, { ...account, smsBalance: -2 });
    expect(books.check().map((b) => b.kind)).toEqual([
      'sms_balance_differs_from_credits_and_messages',
      'negative_sms_balance',
    ]);
  });
});
