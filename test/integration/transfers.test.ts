import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTransferBody } from '#shared/api/transfers.ts';
import { auditLedger } from '#shared/audit/ledger-audit.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { createStore } from '#shared/data/store.ts';
import { getTransfer, type Transfer } from '#shared/data/transfer.ts';
import { walletKey } from '#shared/data/wallet.ts';
import { defaultFeeSchedule, defaultPayoutFeeSchedule, splitFee } from '#shared/domain/fees.ts';
import { accounts } from '#shared/domain/ledger.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import type { PayoutOutcome } from '#shared/providers/port.ts';
import { settleSandboxPayout } from '#shared/providers/sandbox.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { sweepUnsettledPayouts } from '#shared/settlement/payouts.ts';
import { merchant, mtnPayout, operatingWallet } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { payoutCallback } from '#test/support/payouts.ts';

const baseUrl = 'http://localhost:0';
// The sandbox's "no callback" number: the test plays the provider's callbacks itself.
const silentNumber = '+2250700000004';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

const payoutTo = (m: Merchant, amountCents: number) => mtnPayout(m, amountCents, silentNumber, baseUrl);

const toStore = (m: Merchant, from: string, to: string, amountCents: number) =>
  createTransferFor(
    m.caller,
    createTransferBody.parse({
      storeId: from,
      amountCents,
      currency: 'XOF',
      paymentMethod: 'svc',
      destinationStoreId: to,
    }),
    baseUrl,
  );

const callback = (transfer: Transfer, outcome: PayoutOutcome) => payoutCallback(transfer, outcome);

async function paidPayment(m: Merchant, amountCents: number, outcome: 'success' | 'declined') {
  const request = await createPaymentRequestFor(
    m.caller,
    redirectRequestBody(m.store.id, { amountCents }),
    baseUrl,
  );
  const started = await startCollection(request, 'redirect', 'wave', '+2250700000001', baseUrl);
  await completePayment({
    callbackId: randomUUID(),
    provider: 'wave',
    providerReference: started.providerReference as string,
    paymentRequestId: request.id,
    outcome,
  });
}

const payoutFee = (amount: number) => splitFee(amount, defaultPayoutFeeSchedule.mtn).fee;

describe('transfers on the ledger', () => {
  it('reserve, then post: blocked while pending, total down once on success', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 200_000);
    const transfer = await payoutTo(m, 100_000);
    expect(await operatingWallet(m.business.id, m.store.id)).toMatchObject({
      total: 200_000,
      blocked: 101_000,
      available: 99_000,
    });
    expect((await auditLedger()).breaks).toEqual([]);
    expect((await callback(transfer, 'success')).result).toBe('completed');
    expect((await callback(transfer, 'success')).result).toBe('already_completed');
    expect((await callback(transfer, 'declined')).result).toBe('already_completed');
    expect(await operatingWallet(m.business.id, m.store.id)).toMatchObject({
      total: 99_000,
      blocked: 0,
      available: 99_000,
    });
    expect((await getTransfer(m.business.id, transfer.id))?.reservation?.state).toBe('posted');
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('a stuck payout is settled by the status query once the provider has an answer', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 50_000);
    const transfer = await payoutTo(m, 10_000);
    const later = new Date(Date.now() + 3 * 60_000);
    await sweepUnsettledPayouts(later, 1_000);
    expect((await getTransfer(m.business.id, transfer.id, true))?.status).toBe('pending');
    // The provider paid, but its callback was lost on the way.
    await settleSandboxPayout(transfer.id, 'success', false);
    await sweepUnsettledPayouts(later, 1_000);
    expect((await getTransfer(m.business.id, transfer.id, true))?.status).toBe('success');
    expect(await operatingWallet(m.business.id, m.store.id)).toMatchObject({ total: 39_900, blocked: 0 });
    // The callback arriving after all changes nothing.
    expect((await callback(transfer, 'success')).result).toBe('already_completed');
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(39_900);
  });

  it('audit reports a blocked balance that no open reservation explains', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 20_000);
    const key = walletKey(m.business.id, m.store.id, 'operating');
    const block = (amount: number) =>
      documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET blocked = blocked + :amount, available = available - :amount',
          ExpressionAttributeValues: { ':amount': amount },
        }),
      );
    await block(5_000);
    try {
      expect((await auditLedger()).breaks).toContainEqual({
        kind: 'blocked_differs_from_open_reservations',
        subject: accounts.wallet(m.business.id, m.store.id, 'operating'),
        detail: 'blocked 5000, open reservations 0',
      });
    } finally {
      await block(-5_000);
    }
    // A real reservation is explained by its transfer.
    await payoutTo(m, 1_000);
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('keeps every invariant through random payments, transfers and callbacks (property)', async () => {
    const m = await merchant();
    const second = await createStore({ businessId: m.business.id, name: 'Annexe' });
    const stores = [m.store.id, second.id];
    const model = new Map(stores.map((id) => [id, { total: 0, blocked: 0 }]));
    const transfers: { transfer: Transfer; state: 'pending' | 'done' }[] = [];
    const wallet = (storeId: string) => model.get(storeId) as { total: number; blocked: number };

    // What goes through a provider is whole francs; credits and transfers between stores, any cents.
    const wholeFrancs = (min: number) =>
      fc.integer({ min: min / 100, max: 3_000 }).map((francs) => francs * 100);
    const operation = fc.oneof(
      fc.record({ type: fc.constant('credit' as const), amount: fc.integer({ min: 1, max: 300_000 }) }),
      fc.record({
        type: fc.constant('payment' as const),
        amount: wholeFrancs(100),
        outcome: fc.constantFrom('success' as const, 'declined' as const),
      }),
      fc.record({ type: fc.constant('payout' as const), amount: wholeFrancs(500) }),
      fc.record({
        type: fc.constant('svc' as const),
        amount: fc.integer({ min: 500, max: 300_000 }),
        backwards: fc.boolean(),
      }),
      fc.record({
        type: fc.constant('callback' as const),
        index: fc.nat(),
        outcome: fc.constantFrom('success' as const, 'declined' as const, 'limit_exceeded' as const),
        times: fc.integer({ min: 1, max: 2 }),
      }),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        for (const op of operations) {
          const main = wallet(m.store.id);
          if (op.type === 'credit') {
            await creditStore(m.store.id, op.amount);
            main.total += op.amount;
          } else if (op.type === 'payment') {
            await paidPayment(m, op.amount, op.outcome);
            if (op.outcome === 'success') main.total += splitFee(op.amount, defaultFeeSchedule.wave).net;
          } else if (op.type === 'payout') {
            const needed = op.amount + payoutFee(op.amount);
            if (needed > main.total - main.blocked) {
              await expect(payoutTo(m, op.amount)).rejects.toBeInstanceOf(InsufficientBalance);
            } else {
              transfers.push({ transfer: await payoutTo(m, op.amount), state: 'pending' });
              main.blocked += needed;
            }
          } else if (op.type === 'svc') {
            const [from, to] = op.backwards ? [second.id, m.store.id] : [m.store.id, second.id];
            const source = wallet(from);
            if (op.amount > source.total - source.blocked) {
              await expect(toStore(m, from, to, op.amount)).rejects.toBeInstanceOf(InsufficientBalance);
            } else {
              expect((await toStore(m, from, to, op.amount)).status).toBe('success');
              source.total -= op.amount;
              wallet(to).total += op.amount;
            }
          } else if (transfers.length > 0) {
            const chosen = transfers[op.index % transfers.length];
            if (!chosen) continue;
            for (let time = 0; time < op.times; time++) {
              const { result } = await callback(chosen.transfer, op.outcome);
              const reserved = chosen.transfer.amountCents + chosen.transfer.feeCents;
              if (chosen.state === 'pending') {
                expect(result).toBe('completed');
                chosen.state = 'done';
                main.blocked -= reserved;
                if (op.outcome === 'success') main.total -= reserved;
              } else {
                expect(result).toBe('already_completed');
              }
            }
          }
          for (const storeId of stores) {
            const actual = await operatingWallet(m.business.id, storeId);
            const expected = wallet(storeId);
            expect(actual).toMatchObject({
              total: expected.total,
              blocked: expected.blocked,
              available: expected.total - expected.blocked,
            });
            expect(actual.available).toBeGreaterThanOrEqual(0);
          }
          const audit = await auditLedger();
          expect(audit.breaks).toEqual([]);
          expect(audit.sumOfAllPostings).toBe(0);
        }
      }),
      { numRuns: 12 },
    );
  });
});
