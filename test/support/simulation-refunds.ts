import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { findRefund, refundableOf, refundIdsOfPayment } from '#shared/data/refund.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { accounts } from '#shared/domain/ledger.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';
import { getSandboxPayout } from '#shared/providers/sandbox.ts';

/**
 * The refunds of the simulation (test/support/simulation.ts): merchants refunding paid payments,
 * whole or in part, some several at once for the same payment; the sandbox leaves each refund
 * pending (its payer is the silent number) and the simulation's providers decide it as a payout.
 * At the end, the model of what the providers paid back, computed without reading the ledger.
 */
export interface SimulationRandom {
  next(): number;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export interface RefundSimulation {
  random: SimulationRandom;
  caller: Caller;
  baseUrl: string;
  /** Every payment request the simulation made. */
  requests: readonly string[];
  /** The payouts the providers decide: each refund joins them. */
  payouts: Set<string>;
}

type Step = [weight: number, name: string, run: () => Promise<void>];

/** A paid payment of the simulation, if one of a few picked at random is. */
async function paidPayment(sim: RefundSimulation): Promise<PaymentRequest | undefined> {
  for (let tries = 0; tries < 4 && sim.requests.length > 0; tries++) {
    const request = await findPaymentRequest(sim.random.pick(sim.requests), true);
    if (request?.status === 'success' && (await refundableOf(request)) >= 100) return request;
  }
  return undefined;
}

/** A refund of `request`: what remains (`undefined`), or a part of the payment, maybe more than remains. */
function askRefund(sim: RefundSimulation, request: PaymentRequest, amountCents: number | undefined) {
  return createRefundFor(
    sim.caller,
    { paymentRequestId: request.id, amountCents, reference: `sim-refund-${crypto.randomUUID()}` },
    sim.baseUrl,
  ).then((refund) => {
    sim.payouts.add(refund.id);
  });
}

export function refundSteps(sim: RefundSimulation): Step[] {
  return [
    [
      5,
      'a refund asked',
      async () => {
        const request = await paidPayment(sim);
        if (!request) return;
        const amount = sim.random.chance(0.4) ? undefined : sim.random.int(100, request.amountCents);
        await askRefund(sim, request, amount);
      },
    ],
    [
      2,
      'partial refunds racing for one payment',
      async () => {
        const request = await paidPayment(sim);
        if (!request) return;
        const parts = Array.from({ length: sim.random.int(2, 4) }, () =>
          sim.random.int(100, Math.max(100, Math.floor(request.amountCents / 2))),
        );
        const results = await Promise.allSettled(parts.map((amount) => askRefund(sim, request, amount)));
        const failure = results.find((result) => result.status === 'rejected');
        if (failure) throw (failure as PromiseRejectedResult).reason;
      },
    ],
  ];
}

/**
 * Every refund of the simulation's payments, read from their requests: a refund whose step failed
 * after its transaction committed too, which the providers must decide all the same.
 */
export async function everyRefund(requests: readonly string[]): Promise<string[]> {
  return (await Promise.all(requests.map(refundIdsOfPayment))).flat();
}

export interface RefundModel {
  /** What paid refunds took out of the store's operating wallet, and what pending ones hold there. */
  walletOut: number;
  blocked: number;
  refunds: number;
  refundsPaid: number;
  mismatches: string[];
}

/**
 * What the refunds did by the providers' own record: a refund the provider paid took its amount
 * and fee out of the store, owed to (or by) its provider and the fee to the service; a pending one
 * holds them; any other took nothing. Each refund's status must agree, and each payment's
 * `refundedCents` must be what its paid refunds gave back.
 */
export async function refundModel(
  requests: Iterable<PaymentRequest | undefined>,
  add: (account: string, amount: number) => void,
): Promise<RefundModel> {
  const model: RefundModel = { walletOut: 0, blocked: 0, refunds: 0, refundsPaid: 0, mismatches: [] };
  for (const request of requests) {
    if (!request) continue;
    let paidBack = 0;
    for (const id of await refundIdsOfPayment(request.id)) {
      const refund = await findRefund(id, true);
      if (!refund) {
        model.mismatches.push(`refund ${id} of ${request.id}: listed by its payment, yet missing`);
        continue;
      }
      model.refunds++;
      const payout = await getSandboxPayout(id);
      const cost = refund.amountCents + refund.feeCents;
      if (payout?.state === 'success') {
        model.walletOut += cost;
        model.refundsPaid++;
        paidBack += refund.amountCents;
        add(
          refund.route === 'refund'
            ? accounts.providerClearing(refund.paymentMethod)
            : accounts.payoutClearing(refund.paymentMethod),
          refund.amountCents,
        );
        if (refund.feeCents > 0) add(accounts.platformFees, refund.feeCents);
        if (refund.status !== 'success')
          model.mismatches.push(`refund ${id}: paid back, yet ${refund.status}`);
      } else if (payout?.state === 'pending' || (!payout && refund.status === 'pending')) {
        model.blocked += cost;
        if (refund.status !== 'pending')
          model.mismatches.push(`refund ${id}: undecided, yet ${refund.status}`);
      } else if (refund.status === 'success')
        model.mismatches.push(`refund ${id}: never paid back, yet success`);
    }
    if ((request.refundedCents ?? 0) !== paidBack)
      model.mismatches.push(
        `payment ${request.id}: refunded ${request.refundedCents ?? 0}, its refunds paid ${paidBack}`,
      );
    const remaining = await refundableOf(request);
    if (remaining < 0)
      model.mismatches.push(`payment ${request.id}: refunds took ${request.amountCents - remaining}`);
  }
  return model;
}
