import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as expireEscrowHandler } from '#functions/workers/expire-escrow.ts';
import { auditLedger } from '#shared/audit/ledger-audit.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { escrowKey, findEscrow } from '#shared/data/escrow.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { heldAmount } from '#shared/domain/escrows.ts';
import { accounts } from '#shared/domain/ledger.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { leaveAfterFailedAttempt } from '#shared/operations/end-payment.ts';
import { expireEscrow, refundEscrow, releaseEscrow } from '#shared/operations/escrows.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { merchant } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { payoutCallback, transferOfPayout } from '#test/support/payouts.ts';

const baseUrl = 'http://localhost:0';
// The sandbox's "no callback" number: the test plays the provider's callbacks itself.
const silentNumber = '+2250700000004';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

async function escrowPayment(
  m: Merchant,
  amountCents: number,
  onExpiry: 'release' | 'refund',
  outcome: 'success' | 'declined',
) {
  const request = await createPaymentRequestFor(
    { ...m.caller, keyKind: 'platform' },
    redirectRequestBody(m.store.id, { amountCents, escrow: { holdDays: 1, onExpiry } }),
    baseUrl,
  );
  const started = await startCollection(request, 'redirect', 'wave', silentNumber, baseUrl);
  await completePayment({
    callbackId: randomUUID(),
    provider: 'wave',
    providerReference: started.providerReference as string,
    paymentRequestId: request.id,
    outcome,
  });
  // Declined on the page, the request stays open for another try: this payer leaves, which ends it.
  if (outcome !== 'success') await leaveAfterFailedAttempt(request.id);
  return request.escrow?.id as string;
}

async function wallets(m: Merchant) {
  const found = await listStoreWallets(m.business.id, m.store.id);
  const of = (kind: string) =>
    found.find((wallet) => wallet.kind === kind) as { total: number; blocked: number };
  return { operating: of('operating'), escrow: of('escrow') };
}

describe('escrows on the ledger', () => {
  it('keeps every invariant through random holds, releases, refunds, payout outcomes and expiries (property)', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    const model = { operating: { total: 1_000_000, blocked: 0 }, escrow: { total: 0, blocked: 0 } };
    const escrows: string[] = [];
    const later = () => new Date(Date.now() + 2 * 86_400_000);

    const operation = fc.oneof(
      fc.record({
        type: fc.constant('hold' as const),
        amount: fc.integer({ min: 100, max: 300_000 }),
        onExpiry: fc.constantFrom('release' as const, 'refund' as const),
        outcome: fc.constantFrom('success' as const, 'success' as const, 'declined' as const),
      }),
      fc.record({
        type: fc.constantFrom('release' as const, 'refund' as const, 'expire' as const),
        index: fc.nat(),
      }),
      fc.record({
        type: fc.constant('payout' as const),
        index: fc.nat(),
        outcome: fc.constantFrom('success' as const, 'declined' as const),
        times: fc.integer({ min: 1, max: 2 }),
      }),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        for (const op of operations) {
          if (op.type === 'hold') {
            const id = await escrowPayment(m, op.amount, op.onExpiry, op.outcome);
            const escrow = await findEscrow(id, true);
            expect(escrow?.status).toBe(op.outcome === 'success' ? 'held' : 'cancelled');
            if (escrow?.status === 'held') model.escrow.total += heldAmount(escrow);
            escrows.push(id);
            continue;
          }
          const id = escrows.length > 0 ? escrows[op.index % escrows.length] : undefined;
          if (!id) continue;
          const before = await findEscrow(id, true);
          if (!before) throw new Error('escrow gone');
          const held = heldAmount(before);
          if (op.type === 'release' || (op.type === 'expire' && before.onExpiry === 'release')) {
            if (op.type === 'release') {
              const released = releaseEscrow(before);
              if (before.status === 'held') await released;
              else await expect(released).rejects.toMatchObject({ id: expect.stringMatching(/^escrow_/) });
            } else {
              expect(await expireEscrow(id, later())).toBe(
                before.status === 'held' ? 'released' : 'not_held',
              );
            }
            if (before.status === 'held') {
              model.escrow.total -= held;
              model.operating.total += held;
            }
          } else if (op.type === 'refund' || op.type === 'expire') {
            if (op.type === 'refund') {
              const refunding = refundEscrow(before);
              if (before.status === 'held') await refunding;
              else await expect(refunding).rejects.toMatchObject({ id: expect.stringMatching(/^escrow_/) });
            } else {
              expect(await expireEscrow(id, later())).toBe(
                before.status === 'held' ? 'refunded' : 'not_held',
              );
            }
            if (before.status === 'held') model.escrow.blocked += held;
          } else if (op.type === 'payout' && before.refundTransferId) {
            const transfer = await transferOfPayout(before.refundTransferId);
            for (let time = 0; time < op.times; time++) {
              const { result } = await payoutCallback(
                { id: before.refundTransferId, providerReference: transfer?.providerReference },
                op.outcome,
              );
              if (time === 0 && transfer?.status === 'pending') {
                expect(result).toBe('completed');
                model.escrow.blocked -= held;
                if (op.outcome === 'success') model.escrow.total -= held;
              } else {
                expect(result).toBe('already_completed');
              }
            }
            const after = await findEscrow(id, true);
            if (transfer?.status === 'pending')
              expect(after?.status).toBe(op.outcome === 'success' ? 'refunded' : 'held');
          }
          const actual = await wallets(m);
          expect(actual.operating).toMatchObject(model.operating);
          expect(actual.escrow).toMatchObject(model.escrow);
          const audit = await auditLedger();
          expect(audit.breaks).toEqual([]);
          expect(audit.sumOfAllPostings).toBe(0);
        }
      }),
      { numRuns: 10 },
    );
  });

  it('audit reports an escrow moved out of held without its money, and the reverse', async () => {
    const m = await merchant();
    const id = await escrowPayment(m, 50_000, 'release', 'success');
    const escrow = await findEscrow(id, true);
    const held = heldAmount(escrow as NonNullable<typeof escrow>);
    const wallet = accounts.wallet(m.business.id, m.store.id, 'escrow');
    const setStatus = (status: string) =>
      documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: escrowKey(id),
          UpdateExpression: 'SET #status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status },
        }),
      );
    expect((await auditLedger()).breaks).toEqual([]);
    await setStatus('released');
    try {
      expect((await auditLedger()).breaks).toContainEqual({
        kind: 'escrow_wallet_differs_from_held_escrows',
        subject: wallet,
        detail: `total ${held}, held by its escrows 0`,
      });
    } finally {
      await setStatus('held');
    }
    await releaseEscrow((await findEscrow(id, true)) as NonNullable<typeof escrow>);
    await setStatus('held');
    try {
      expect((await auditLedger()).breaks).toContainEqual({
        kind: 'escrow_wallet_differs_from_held_escrows',
        subject: wallet,
        detail: `total 0, held by its escrows ${held}`,
      });
    } finally {
      await setStatus('released');
    }
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('the expiry function invoked before the hold ends fails, so Scheduler retries it, and leaves the escrow held', async () => {
    const m = await merchant();
    const id = await escrowPayment(m, 30_000, 'release', 'success');
    await expect(expireEscrowHandler({ escrowId: id })).rejects.toThrow(/not due/);
    expect((await findEscrow(id, true))?.status).toBe('held');
    await releaseEscrow((await findEscrow(id, true)) as NonNullable<Awaited<ReturnType<typeof findEscrow>>>);
    await expect(expireEscrowHandler({ escrowId: id })).resolves.toEqual({ result: 'not_held' });
  });
});
