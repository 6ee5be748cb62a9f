import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { findRefund, type Refund } from '#shared/data/refund.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { accounts, type JournalEntry, payoutPostings } from '#shared/domain/ledger.ts';
import { reconcile, reconciliationLines } from '#shared/domain/statement.ts';
import { homeMoney } from '#shared/operations/dashboard-overview.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';
import { actingOwnerOf, merchant, mtnPayout, paidPayment } from '#test/support/fixtures.ts';
import { payoutCallback } from '#test/support/payouts.ts';

/**
 * The home's reconciliation (issue 35): for today and for the last 30 days, the balance at the
 * start, plus what was collected, less the fees, the refunds, the transfers, the withdrawals and
 * the SMS bought, is the balance at the end, to the franc, and the end is the wallets' total.
 */

const baseUrl = 'http://localhost:0';
const silentNumber = '+2250700000004';
const dayMs = 86_400_000;

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

const post = (entry: Omit<JournalEntry, 'id' | 'cause'>) =>
  transactWrite(ledgerWrites({ ...entry, id: `test:${randomUUID()}`, cause: 'reconciliation test' }));

const sum = (lines: Record<string, number>) =>
  Object.values(lines).reduce((total, cents) => total + cents, 0);

describe('the home’s reconciliation', () => {
  it('adds each period’s lines up to its change in balance, to the franc', async () => {
    const m = await merchant();
    const wallet = accounts.wallet(m.business.id, m.store.id, 'operating');
    // Three days ago: test money and a withdrawal with its fee; so today opens above zero.
    const earlier = new Date(Date.now() - 3 * dayMs).toISOString();
    await post({
      kind: 'credit',
      createdAt: earlier,
      postings: [
        { account: accounts.sandboxFunding, amount: -1_000_000 },
        { account: wallet, amount: 1_000_000 },
      ],
    });
    await post({
      kind: 'withdrawal',
      createdAt: earlier,
      postings: payoutPostings({
        businessId: m.business.id,
        storeId: m.store.id,
        method: 'wave',
        amount: 200_000,
        fee: 2_000,
      }),
    });
    // Today: a payment (its fee), its partial refund, a transfer (its fee), SMS bought.
    const paymentId = await paidPayment(m.caller, m.store.id, {
      amountCents: 500_050,
      provider: 'wave',
      payerPhone: silentNumber,
    });
    const refund = await createRefundFor(
      m.caller,
      { paymentRequestId: paymentId, amountCents: 100_000, reference: `retour-${randomUUID()}` },
      baseUrl,
    );
    await payoutCallback((await findRefund(refund.id, true)) as Refund, 'success');
    const sent = await mtnPayout(m, 150_000, silentNumber, baseUrl);
    await payoutCallback(sent, 'success');
    await post({
      kind: 'sms',
      createdAt: new Date().toISOString(),
      postings: [
        { account: wallet, amount: -2_500 },
        { account: 'platform:sms', amount: 2_500 },
      ],
    });

    const total = (await listStoreWallets(m.business.id, m.store.id)).reduce(
      (all, one) => all + one.total,
      0,
    );
    const money = await homeMoney(actingOwnerOf(m));
    const [store] = money.stores;
    if (!store) throw new Error('no store');
    const { today, lastDays } = store.change;

    // The window opens on a new store's zero; today on what the earlier day left.
    expect(lastDays.opening).toBe(0);
    expect(today.opening).toBe(1_000_000 - 200_000 - 2_000);
    for (const period of [today, lastDays]) {
      expect(period.closing).toBe(total);
      expect(period.opening + sum(reconcile(period.kinds))).toBe(period.closing);
    }
    const lines = reconcile(today.kinds);
    expect(lines.collected).toBe(500_050);
    expect(lines.refunds).toBe(-100_000);
    expect(lines.transfers).toBe(-150_000);
    expect(lines.sms).toBe(-2_500);
    expect(lines.withdrawals).toBe(0);
    expect(lines.fees).toBeLessThan(0);
    expect(reconcile(lastDays.kinds)).toMatchObject({ withdrawals: -200_000, credit: 1_000_000 });
    expect(reconcile(lastDays.kinds).fees).toBe(lines.fees - 2_000);
    // Every line is named: none falls outside the list the page shows.
    expect(Object.keys(lines).sort()).toEqual([...reconciliationLines].sort());
    // The business's figures, one store here, are the store's.
    expect(money.business[0]?.change.today).toMatchObject({ opening: today.opening, closing: total });
  });
});
