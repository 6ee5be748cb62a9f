import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '#shared/audit/ledger-audit.ts';
import { getOrphanCollection, orphanIdOf } from '#shared/data/orphan-collection.ts';
import { getPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { defaultFeeSchedule, splitFee } from '#shared/domain/fees.ts';
import { accounts } from '#shared/domain/ledger.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { orphanCollectionsReport } from '#shared/operations/orphan-collections.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import type { CollectionOutcome, PayoutOutcome, VerifiedCallback } from '#shared/providers/port.ts';
import { getSandboxPayout, settleSandboxPayout } from '#shared/providers/sandbox.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { payoutStatusQueryAfterMs, settlePayout, sweepUnsettledPayouts } from '#shared/settlement/payouts.ts';
import { merchant, operatingWallet } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { eventsAnnouncedFor } from '#test/support/table-stream.ts';

const baseUrl = 'http://localhost:0';
// The sandbox's "no callback" number: the provider's payout stays pending until the test settles it.
const silentPayer = '+2250700000004';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

/** A redirect request on which the payer started with wave, went back, and started with orange. */
async function paidTwice(m: Merchant, amountCents: number) {
  const request = await createPaymentRequestFor(
    m.caller,
    redirectRequestBody(m.store.id, { amountCents }),
    baseUrl,
  );
  const first = await startCollection(request, 'redirect', 'wave', silentPayer, baseUrl);
  const second = await startCollection(first, 'redirect', 'orange', silentPayer, baseUrl);
  return { request, first, second };
}

const report = (
  request: PaymentRequest,
  provider: ProviderCode,
  providerReference: string,
  outcome: CollectionOutcome = 'success',
): VerifiedCallback => ({
  callbackId: randomUUID(),
  provider,
  providerReference,
  paymentRequestId: request.id,
  outcome,
  payerPhone: silentPayer,
});

const payoutCallback = (orphanId: string, providerReference: string, outcome: PayoutOutcome) =>
  settlePayout({ payoutId: orphanId, providerReference, outcome });

async function accountBalance(account: string): Promise<number> {
  return (await auditLedger()).accountBalances[account] ?? 0;
}

/** An event the stream's consumer announces from the orphan's changes. */
async function announced(orphanId: string, eventId: string) {
  return (await eventsAnnouncedFor(`ORPHAN#${orphanId}`)).find((event) => event.id === eventId);
}

describe('a payer who pays one request twice, with two providers', () => {
  it('completes the request with its current collection and refunds the superseded one, once', async () => {
    const m = await merchant();
    const { request, first, second } = await paidTwice(m, 20_000);
    const owedBefore = await accountBalance(accounts.payerRefunds);

    // The superseded collection's success arrives first, then the current one's, then duplicates.
    const orphaned = await completePayment(report(request, 'wave', first.providerReference as string));
    expect(orphaned.result).toBe('orphan_collection');
    expect(
      (await completePayment(report(request, 'orange', second.providerReference as string))).result,
    ).toBe('completed');
    for (const again of [first, second, first]) {
      const provider = again === first ? 'wave' : 'orange';
      const result = (await completePayment(report(request, provider, again.providerReference as string)))
        .result;
      expect(['orphan_collection', 'already_completed']).toContain(result);
    }

    const completed = (await getPaymentRequest(m.business.id, request.id)) as PaymentRequest;
    expect(completed.status).toBe('success');
    expect(completed.providerReference).toBe(second.providerReference);
    // The merchant has one payment; the other is owed to the payer, not to the store.
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(
      splitFee(20_000, defaultFeeSchedule.orange).net,
    );
    const orphanId = orphanIdOf('wave', first.providerReference as string);
    const orphan = await getOrphanCollection(orphanId);
    expect(orphan).toMatchObject({
      status: 'refunding',
      amountCents: 20_000,
      provider: 'wave',
      paymentRequestId: request.id,
      payerPhone: silentPayer,
      payoutCallbackUrl: `${baseUrl}/provider_callbacks/wave/payouts`,
    });
    expect(await accountBalance(accounts.payerRefunds)).toBe(owedBefore + 20_000);
    // One payout was asked of the provider, to the payer, for the amount.
    const payout = await getSandboxPayout(orphanId);
    expect(payout).toMatchObject({ amountCents: 20_000, beneficiaryNumber: silentPayer, state: 'pending' });

    // The payout's callback, duplicated: refunded once, with its event.
    const payoutReference = payout?.providerReference as string;
    await settleSandboxPayout(orphanId, 'success', false);
    const results = await Promise.all([
      payoutCallback(orphanId, payoutReference, 'success'),
      payoutCallback(orphanId, payoutReference, 'success'),
    ]);
    expect(results.sort()).toEqual(['already_completed', 'completed']);
    expect((await getOrphanCollection(orphanId))?.status).toBe('refunded');
    expect(await announced(orphanId, `COLLECTION_REFUND:${orphanId}:refunding`)).toBeDefined();
    expect((await announced(orphanId, `COLLECTION_REFUND:${orphanId}:refunded`))?.body).toMatchObject({
      id: orphanId,
      status: 'refunded',
      amount: { amount: 20_000, currency: 'XOF' },
      transactionDetails: { id: request.id, reference: request.reference },
    });
    expect(await accountBalance(accounts.payerRefunds)).toBe(owedBefore);
    // A late duplicate of the orphan's collection callback changes nothing and asks for nothing.
    expect((await completePayment(report(request, 'wave', first.providerReference as string))).result).toBe(
      'orphan_collection',
    );
    expect((await getOrphanCollection(orphanId))?.status).toBe('refunded');
    const audit = await auditLedger();
    expect(audit.breaks).toEqual([]);
    expect(audit.sumOfAllPostings).toBe(0);
  });

  it('refunds the superseded collection when it reports after the request completed', async () => {
    const m = await merchant();
    const { request, first, second } = await paidTwice(m, 5_000);
    // The first collection completed the request (before the second was recorded, say): the
    // second's start is refused, yet its provider may still collect, and then it is refunded.
    expect(
      (await completePayment(report(request, 'orange', second.providerReference as string))).result,
    ).toBe('completed');
    const orphaned = await completePayment(report(request, 'wave', first.providerReference as string));
    expect(orphaned.result).toBe('orphan_collection');
    expect((await getOrphanCollection(orphanIdOf('wave', first.providerReference as string)))?.status).toBe(
      'refunding',
    );
  });

  it('ignores a superseded collection that failed, and asks again for an unknown one while pending', async () => {
    const m = await merchant();
    const { request, first } = await paidTwice(m, 5_000);
    expect(
      (await completePayment(report(request, 'wave', first.providerReference as string, 'declined'))).result,
    ).toBe('wrong_collection');
    expect(await getOrphanCollection(orphanIdOf('wave', first.providerReference as string))).toBeUndefined();
    // A success for a collection the request has not recorded yet: the provider is asked to resend.
    await expect(completePayment(report(request, 'wave', 'sbx_not-recorded-yet'))).rejects.toMatchObject({
      id: 'conflict',
    });
    expect((await getPaymentRequest(m.business.id, request.id))?.status).toBe('pending');
  });

  it('ends a refund whose payout callback never came from the provider status (the payouts sweep)', async () => {
    const m = await merchant();
    const { request, first } = await paidTwice(m, 7_000);
    await completePayment(report(request, 'wave', first.providerReference as string));
    const orphanId = orphanIdOf('wave', first.providerReference as string);
    // The sweeper asks the provider for the status; it answers with the settled payout.
    await settleSandboxPayout(orphanId, 'declined', false);
    const swept = await sweepUnsettledPayouts(new Date(Date.now() + payoutStatusQueryAfterMs + 1000), 1000);
    expect(swept.found).toBeGreaterThanOrEqual(1);
    const orphan = await getOrphanCollection(orphanId);
    expect(orphan).toMatchObject({ status: 'refund_failed', errorReason: 'declined' });
    // Still owed to the payer: shown to the operator.
    const view = await orphanCollectionsReport();
    expect(view.ended.map((o) => o.id)).toContain(orphanId);
    expect(view.owedToPayersCents).toBeGreaterThanOrEqual(7_000);
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('refunds exactly the double payments, whatever the order and number of the callbacks (property)', async () => {
    const m = await merchant({ verificationLevel: 3 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.array(fc.constantFrom<'first' | 'second'>('first', 'second'), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (amount, order, concurrent) => {
          const { request, first, second } = await paidTwice(m, amount);
          const walletBefore = (await operatingWallet(m.business.id, m.store.id)).total;
          const owedBefore = await accountBalance(accounts.payerRefunds);
          const callbacks = order.map((which) =>
            which === 'first'
              ? report(request, 'wave', first.providerReference as string)
              : report(request, 'orange', second.providerReference as string),
          );
          if (concurrent) await Promise.all(callbacks.map((c) => completePayment(c)));
          else for (const c of callbacks) await completePayment(c);

          const paidWithSecond = order.includes('second');
          const paidWithFirst = order.includes('first');
          const final = (await getPaymentRequest(m.business.id, request.id)) as PaymentRequest;
          expect(final.status).toBe(paidWithSecond ? 'success' : 'pending');
          const wallet = (await operatingWallet(m.business.id, m.store.id)).total;
          expect(wallet - walletBefore).toBe(
            paidWithSecond ? splitFee(amount, defaultFeeSchedule.orange).net : 0,
          );
          const orphan = await getOrphanCollection(orphanIdOf('wave', first.providerReference as string));
          expect(orphan !== undefined).toBe(paidWithFirst);
          expect((await accountBalance(accounts.payerRefunds)) - owedBefore).toBe(paidWithFirst ? amount : 0);
        },
      ),
      { numRuns: 12 },
    );
    expect((await auditLedger()).breaks).toEqual([]);
  });
});
