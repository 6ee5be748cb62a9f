import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '#shared/audit/ledger-audit.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { entryKey, journalOf } from '#shared/data/ledger.ts';
import { findPaymentRequest, paymentRequestKey } from '#shared/data/payment-request.ts';
import { findRefund, type Refund, refundableOf, refundIdsOfPayment } from '#shared/data/refund.ts';
import { defaultFeeSchedule, splitFee } from '#shared/domain/fees.ts';
import { accounts } from '#shared/domain/ledger.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { PaymentRequestNotRefundable, RefundAboveRemaining } from '#shared/errors/refunds.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';
import type { PayoutOutcome } from '#shared/providers/port.ts';
import { settleSandboxPayout } from '#shared/providers/sandbox.ts';
import { sweepUnsettledPayouts } from '#shared/settlement/payouts.ts';
import { merchant, operatingWallet, paidPayment } from '#test/support/fixtures.ts';
import { payoutCallback } from '#test/support/payouts.ts';

const baseUrl = 'http://localhost:0';
// The sandbox's "no callback" number: its refunds stay pending, and the test plays the provider.
const silentPayer = '+2250700000004';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

/** A payment of `amountCents` collected by `provider` from the silent payer: the store gets it less the fee. */
const paid = (m: Merchant, amountCents: number, provider: ProviderCode) =>
  paidPayment(m.caller, m.store.id, { amountCents, provider, payerPhone: silentPayer }, baseUrl);

const refundOf = (m: Merchant, paymentRequestId: string, amountCents?: number) =>
  createRefundFor(m.caller, { paymentRequestId, amountCents, reference: `retour-${randomUUID()}` }, baseUrl);

const callback = (refund: Refund, outcome: PayoutOutcome) => payoutCallback(refund, outcome);

const entryOf = async (refund: Refund) => {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: entryKey(`refund:${refund.id}`), ConsistentRead: true }),
  );
  return Item ? journalOf(Item) : undefined;
};

const refundable = async (paymentRequestId: string) =>
  refundableOf((await findPaymentRequest(paymentRequestId, true)) as { id: string; amountCents: number });

const fee = (amount: number, provider: ProviderCode) => splitFee(amount, defaultFeeSchedule[provider]).fee;

describe('refunds on the ledger', () => {
  it('reserve, then post against the provider’s clearing when it refunds the collection itself', async () => {
    const m = await merchant();
    const paymentId = await paid(m, 100_000, 'mtn');
    const kept = 100_000 - fee(100_000, 'mtn');
    await creditStore(m.store.id, 10_000);
    const refund = await refundOf(m, paymentId, 40_000);
    expect(refund).toMatchObject({ status: 'pending', route: 'refund', feeCents: 0 });
    expect(await operatingWallet(m.business.id, m.store.id)).toMatchObject({
      total: kept + 10_000,
      blocked: 40_000,
      available: kept + 10_000 - 40_000,
    });
    expect(await refundable(paymentId)).toBe(60_000);
    expect((await auditLedger()).breaks).toEqual([]);

    const stored = (await findRefund(refund.id, true)) as Refund;
    expect((await callback(stored, 'success'))?.result).toBe('completed');
    expect((await callback(stored, 'success'))?.result).toBe('already_completed');
    expect((await callback(stored, 'declined'))?.result).toBe('already_completed');
    expect(await operatingWallet(m.business.id, m.store.id)).toMatchObject({
      total: kept + 10_000 - 40_000,
      blocked: 0,
    });
    expect((await entryOf(stored))?.postings).toEqual([
      { account: accounts.wallet(m.business.id, m.store.id, 'operating'), amount: -40_000 },
      { account: accounts.providerClearing('mtn'), amount: 40_000 },
    ]);
    expect(await refundable(paymentId)).toBe(60_000);
    expect((await findPaymentRequest(paymentId, true))?.refundedCents).toBe(40_000);
    expect(await refundIdsOfPayment(paymentId)).toEqual([refund.id]);
    expect((await findRefund(refund.id, true))?.reservation.state).toBe('posted');
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('posts against the provider’s payout account when the refund is a payout to the payer', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 50_000);
    const paymentId = await paid(m, 30_000, 'orange');
    const refund = await refundOf(m, paymentId);
    expect(refund).toMatchObject({ amountCents: 30_000, route: 'payout' });
    await callback((await findRefund(refund.id, true)) as Refund, 'success');
    expect((await entryOf(refund))?.postings).toContainEqual({
      account: accounts.payoutClearing('orange'),
      amount: 30_000,
    });
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('gives a failed refund’s reservation back to the wallet and its amount back to the payment', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 50_000);
    const paymentId = await paid(m, 20_000, 'wave');
    const before = await operatingWallet(m.business.id, m.store.id);
    const refund = await refundOf(m, paymentId, 5_000);
    // A part of a Wave payment is paid out: Wave refunds whole sessions only.
    expect(refund.route).toBe('payout');
    expect((await callback((await findRefund(refund.id, true)) as Refund, 'limit_exceeded'))?.result).toBe(
      'completed',
    );
    expect(await operatingWallet(m.business.id, m.store.id)).toMatchObject({
      total: before.total,
      blocked: 0,
      available: before.available,
    });
    expect(await findRefund(refund.id, true)).toMatchObject({
      status: 'error',
      errorReason: 'limit_exceeded',
      reservation: { state: 'released' },
    });
    expect(await entryOf(refund)).toBeUndefined();
    expect(await refundable(paymentId)).toBe(20_000);
    expect((await findPaymentRequest(paymentId, true))?.refundedCents).toBeUndefined();
    // The whole payment is refundable again, by Wave's own refund this time.
    expect((await refundOf(m, paymentId)).route).toBe('refund');
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('takes nothing when the balance does not cover the refund', async () => {
    const m = await merchant();
    const paymentId = await paid(m, 10_000, 'orange');
    await expect(refundOf(m, paymentId)).rejects.toBeInstanceOf(InsufficientBalance);
    expect(await refundable(paymentId)).toBe(10_000);
    expect((await operatingWallet(m.business.id, m.store.id)).blocked).toBe(0);
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('never takes more than the payment, however many refunds race for it', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    const paymentId = await paid(m, 100_000, 'moov');
    const amounts = [25_000, 40_000, 10_000, 35_000, 20_000, 30_000, 15_000, 5_000];
    const results = await Promise.allSettled(amounts.map((amount) => refundOf(m, paymentId, amount)));
    const taken = results
      .filter((result): result is PromiseFulfilledResult<Refund> => result.status === 'fulfilled')
      .reduce((sum, result) => sum + result.value.amountCents, 0);
    // Refused for what remains: less than asked, or nothing at all.
    for (const result of results) {
      if (result.status === 'rejected')
        expect(
          result.reason instanceof RefundAboveRemaining ||
            result.reason instanceof PaymentRequestNotRefundable,
        ).toBe(true);
    }
    expect(taken).toBeLessThanOrEqual(100_000);
    expect(await refundable(paymentId)).toBe(100_000 - taken);
    expect((await operatingWallet(m.business.id, m.store.id)).blocked).toBe(taken);
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('settles a refund whose callback was lost through the status query, once', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 50_000);
    const paymentId = await paid(m, 20_000, 'djamo');
    const refund = await refundOf(m, paymentId, 8_000);
    const later = new Date(Date.now() + 3 * 60_000);
    await sweepUnsettledPayouts(later, 1_000);
    expect((await findRefund(refund.id, true))?.status).toBe('pending');
    await settleSandboxPayout(refund.id, 'success', false);
    await sweepUnsettledPayouts(later, 1_000);
    const settled = (await findRefund(refund.id, true)) as Refund;
    expect(settled.status).toBe('success');
    expect((await callback(settled, 'success'))?.result).toBe('already_completed');
    expect((await findPaymentRequest(paymentId, true))?.refundedCents).toBe(8_000);
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('audit reports a payment whose refundable amount its refunds do not explain', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 50_000);
    const paymentId = await paid(m, 20_000, 'orange');
    await refundOf(m, paymentId, 5_000);
    const move = (amount: number) =>
      documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: paymentRequestKey(paymentId).pk, sk: 'REFUNDABLE' },
          UpdateExpression: 'ADD refundable :amount',
          ExpressionAttributeValues: { ':amount': amount },
        }),
      );
    await move(5_000);
    try {
      expect((await auditLedger()).breaks).toContainEqual({
        kind: 'refunds_differ_from_payment_counters',
        subject: `payment_request:${paymentId}`,
        detail: 'refundable 20000 of 20000 and refunded 0; refunds took 5000, paid 0',
      });
    } finally {
      await move(-5_000);
    }
    expect((await auditLedger()).breaks).toEqual([]);
  });
});
