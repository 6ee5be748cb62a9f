import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTransferBody } from '#shared/api/transfers.ts';
import { findEscrow } from '#shared/data/escrow.ts';
import { findRefund, type Refund } from '#shared/data/refund.ts';
import { createStore } from '#shared/data/store.ts';
import type { Transfer } from '#shared/data/transfer.ts';
import { creditStore } from '#shared/operations/credit.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { homeMoney } from '#shared/operations/dashboard-overview.ts';
import { leaveAfterFailedAttempt } from '#shared/operations/end-payment.ts';
import { refundEscrow } from '#shared/operations/escrows.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import type { PayoutOutcome } from '#shared/providers/port.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { dayTotalsMismatches } from '#test/support/day-totals-check.ts';
import { merchant, mtnPayout, operatingWallet, paidPayment } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { payoutCallback, transferOfPayout } from '#test/support/payouts.ts';

/**
 * The home page's day totals are kept in the stores' day counters as the money moves: each
 * success adds its amount once, a failure adds nothing, a duplicate or late outcome nothing more.
 */

const baseUrl = 'http://localhost:0';
// The sandbox's "no callback" number: the test plays the provider's answers.
const silentNumber = '+2250700000004';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

const memberOf = (m: Merchant): ActingMember => ({
  businessId: m.business.id,
  businessName: m.business.name,
  memberId: randomUUID(),
  userId: randomUUID(),
  role: 'viewer',
  isServiceProvider: false,
  verificationLevel: 1,
});

const payoutTo = (m: Merchant, amountCents: number) => mtnPayout(m, amountCents, silentNumber, baseUrl);

const transferCallback = (transfer: Transfer, outcome: PayoutOutcome) => payoutCallback(transfer, outcome);

const refundCallback = (refund: Refund, outcome: PayoutOutcome) => payoutCallback(refund, outcome);

/** A request of the merchant, its Wave collection started and told `outcome` by the provider. */
async function collected(
  caller: Merchant['caller'],
  body: ReturnType<typeof redirectRequestBody>,
  outcome: 'declined' | 'success',
) {
  const request = await createPaymentRequestFor(caller, body, baseUrl);
  const started = await startCollection(request, 'redirect', 'wave', silentNumber, baseUrl);
  const told = {
    callbackId: randomUUID(),
    provider: 'wave' as const,
    providerReference: started.providerReference as string,
    paymentRequestId: request.id,
    outcome,
  };
  await completePayment(told);
  return { request, told };
}

async function declinedPayment(m: Merchant, amountCents: number) {
  const { request } = await collected(m.caller, redirectRequestBody(m.store.id, { amountCents }), 'declined');
  await leaveAfterFailedAttempt(request.id);
}

async function escrowPayment(m: Merchant, amountCents: number) {
  const { request, told } = await collected(
    { ...m.caller, keyKind: 'platform' },
    redirectRequestBody(m.store.id, { amountCents, escrow: { holdDays: 1, onExpiry: 'release' } }),
    'success',
  );
  // The same success told again (a provider's retry) changes nothing.
  await completePayment({ ...told, callbackId: randomUUID() });
  return request.escrow?.id as string;
}

const totalsOf = async (m: Merchant, storeId = m.store.id) => {
  const money = await homeMoney(memberOf(m));
  const store = money.stores.find((candidate) => candidate.store.id === storeId);
  if (!store) throw new Error(`no store ${storeId} on the home page`);
  return { money, store };
};

describe('day totals kept as the money moves', () => {
  it('adds a payment’s success once, a refund’s and a transfer’s at their success, never a failure', async () => {
    const m = await merchant();
    const paymentId = await paidPayment(m.caller, m.store.id, {
      amountCents: 100_000,
      provider: 'mtn',
      payerPhone: silentNumber,
    });
    await declinedPayment(m, 7_000);
    await creditStore(m.store.id, 500_000);

    let { store } = await totalsOf(m);
    expect(store.today.collected).toEqual({ cents: 100_000, count: 1 });
    expect(store.today.refunded).toEqual({ cents: 0, count: 0 });

    // A refund counts when its provider says it is done, once however often it says so.
    const refund = await createRefundFor(
      m.caller,
      { paymentRequestId: paymentId, amountCents: 40_000, reference: `retour-${randomUUID()}` },
      baseUrl,
    );
    ({ store } = await totalsOf(m));
    expect(store.today.refunded).toEqual({ cents: 0, count: 0 });
    const storedRefund = (await findRefund(refund.id, true)) as Refund;
    expect((await refundCallback(storedRefund, 'success'))?.result).toBe('completed');
    expect((await refundCallback(storedRefund, 'success'))?.result).toBe('already_completed');

    // A transfer that succeeds, one that fails; the successful one's callback comes twice.
    const sent = await payoutTo(m, 30_000);
    const failed = await payoutTo(m, 20_000);
    ({ store } = await totalsOf(m));
    expect(store.today.paidOut).toEqual({ cents: 0, count: 0 });
    expect((await transferCallback(sent, 'success')).result).toBe('completed');
    expect((await transferCallback(sent, 'success')).result).toBe('already_completed');
    expect((await transferCallback(failed, 'declined')).result).toBe('completed');
    expect((await transferCallback(failed, 'success')).result).toBe('already_completed');

    const { money, store: after } = await totalsOf(m);
    expect(after.today).toEqual({
      collected: { cents: 100_000, count: 1 },
      refunded: { cents: 40_000, count: 1 },
      paidOut: { cents: 30_000, count: 1 },
    });
    expect(after.lastDays).toEqual(after.today);
    expect(after.collectedByDay).toHaveLength(30);
    expect(after.collectedByDay.at(-1)).toEqual({ day: money.today, cents: 100_000 });
    expect(after.collectedByDay.slice(0, -1).every((day) => day.cents === 0)).toBe(true);
    // The balances are the wallets', the available one the API's balance.
    const wallet = await operatingWallet(m.business.id, m.store.id);
    expect(after.amounts).toEqual({ available: wallet.available, held: 0, reserved: 0 });
    // The latest lines: every line listed, newest first (payment, declined payment, refund, 2 transfers).
    expect(money.latest.map((line) => [line.type, line.status])).toEqual([
      ['transfer', 'error'],
      ['transfer', 'success'],
      ['refund', 'success'],
      ['payment', 'error'],
      ['payment', 'success'],
    ]);
    expect(money.business).toEqual([
      { currency: 'XOF', today: after.today, lastDays: after.today, change: after.change },
    ]);
    expect(await dayTotalsMismatches(m.business.id, m.store.id)).toEqual([]);
  });

  it('counts a transfer between two stores as paid out by one and collected by the other', async () => {
    const m = await merchant();
    const annex = await createStore({ businessId: m.business.id, name: 'Annexe' });
    await creditStore(m.store.id, 100_000);
    await createTransferFor(
      m.caller,
      createTransferBody.parse({
        storeId: m.store.id,
        amountCents: 25_000,
        currency: 'XOF',
        paymentMethod: 'svc',
        destinationStoreId: annex.id,
      }),
      baseUrl,
    );
    const { money, store } = await totalsOf(m);
    const other = money.stores.find((candidate) => candidate.store.id === annex.id);
    expect(store.today.paidOut).toEqual({ cents: 25_000, count: 1 });
    expect(other?.today.collected).toEqual({ cents: 25_000, count: 1 });
    expect(money.business[0]?.today).toMatchObject({
      collected: { cents: 25_000, count: 1 },
      paidOut: { cents: 25_000, count: 1 },
    });
  });

  it('shows an escrow’s payment held, and counts its payback to the payer as refunded', async () => {
    const m = await merchant();
    const escrowId = await escrowPayment(m, 50_000);
    let { store } = await totalsOf(m);
    expect(store.today.collected).toEqual({ cents: 50_000, count: 1 });
    const escrow = await findEscrow(escrowId, true);
    if (!escrow) throw new Error('no escrow');
    expect(store.amounts.held).toBeGreaterThan(0);
    expect(store.amounts.available).toBe(0);

    await refundEscrow(escrow);
    ({ store } = await totalsOf(m));
    // Reserved for the payout until the provider answers; nothing refunded yet.
    expect(store.amounts).toMatchObject({ held: 0, reserved: expect.any(Number) });
    expect(store.amounts.reserved).toBeGreaterThan(0);
    expect(store.today.refunded).toEqual({ cents: 0, count: 0 });

    const refunding = await findEscrow(escrowId, true);
    const payout = (await transferOfPayout(refunding?.refundTransferId as string)) as Transfer;
    expect((await transferCallback(payout, 'success')).result).toBe('completed');
    expect((await transferCallback(payout, 'success')).result).toBe('already_completed');
    ({ store } = await totalsOf(m));
    expect(store.today.refunded).toEqual({ cents: 50_000, count: 1 });
    expect(store.today.paidOut).toEqual({ cents: 0, count: 0 });
    expect(store.amounts).toEqual({ available: 0, held: 0, reserved: 0 });
    expect(await dayTotalsMismatches(m.business.id, m.store.id)).toEqual([]);
  });
});
