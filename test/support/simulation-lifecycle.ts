import { randomUUID } from 'node:crypto';
import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { collectionGraceMs, endReasons } from '#shared/domain/payment-lifetime.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { cancelPaymentRequestFor, leaveHostedPage } from '#shared/operations/end-payment.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';

/**
 * The simulation's share of a payment's whole life (test/support/simulation.ts): requests that
 * live for a second or three, so they expire within the run (the expiry's checks go through the
 * real queue and worker, their start through the table's stream), merchants cancelling, payers
 * leaving the page. Callbacks of their collections keep coming after they ended: those successes
 * are late, and the model wants them refunded, never credited.
 */

/** What the simulation hands these steps. */
export interface LifecycleWorld {
  random: {
    int: (min: number, max: number) => number;
    chance: (p: number) => boolean;
    pick: <T>(items: readonly T[]) => T;
  };
  caller: Caller;
  storeId: string;
  baseUrl: string;
  providers: readonly ProviderCode[];
  payerPhone: string;
  /** Every request made, for the other steps to act on. */
  requests: string[];
  /** A collection the providers may now decide. */
  remember: (requestId: string, provider: ProviderCode, amount: number, reference?: string) => void;
  /** Hands due expiry checks to the real worker; answers how many it handed. */
  deliverExpiryChecks: (chaos: boolean) => Promise<number>;
}

type Step = [weight: number, name: string, run: () => Promise<void>];

/** The requests made to expire within the run, with when they do. */
export interface ShortLives {
  expiresAt: Map<string, number>;
}

export function lifecycleSteps(world: LifecycleWorld, short: ShortLives): Step[] {
  const { random } = world;
  const pickRequest = () => (world.requests.length > 0 ? random.pick(world.requests) : undefined);
  return [
    [
      6,
      'a payment request that lives a few seconds',
      async () => {
        const provider = random.pick(world.providers);
        const amount = random.int(100, 300_000);
        const request = await createPaymentRequestFor(
          world.caller,
          {
            storeId: world.storeId,
            amountCents: amount,
            currency: 'XOF',
            reference: `sim-short-${randomUUID()}`,
            expiresAt: new Date(Date.now() + random.int(1_000, 3_000)).toISOString(),
            paymentDetails: {
              type: 'redirect',
              data: {
                paymentMethod: provider,
                successUrl: 'https://shop.example/ok',
                errorUrl: 'https://shop.example/ko',
              },
            },
          },
          world.baseUrl,
        );
        world.requests.push(request.id);
        short.expiresAt.set(request.id, Date.parse(request.expiresAt));
        // Half the payers get as far as the provider, whose answer may come after the end.
        if (!random.chance(0.5)) return;
        const started = await startCollection(request, 'redirect', provider, world.payerPhone, world.baseUrl);
        world.remember(request.id, provider, amount, started.providerReference);
      },
    ],
    [
      3,
      'the merchant cancels a payment request',
      async () => {
        const id = pickRequest();
        if (id) await cancelPaymentRequestFor(world.caller, id);
      },
    ],
    [
      2,
      'the payer leaves the page for the shop',
      async () => {
        const id = pickRequest();
        if (id) await leaveHostedPage(id);
      },
    ],
    [
      6,
      'the expiry worker takes due checks',
      async () => {
        await world.deliverExpiryChecks(true);
      },
    ],
  ];
}

/**
 * The end of the day for the short-lived requests: once the last of them is past its grace, every
 * check due is handed to the worker until none is left; then none may still be pending.
 */
export async function expireShortLives(world: LifecycleWorld, short: ShortLives): Promise<string[]> {
  const last = Math.max(0, ...short.expiresAt.values());
  const wait = last + collectionGraceMs() + 1_500 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  while ((await world.deliverExpiryChecks(false)) > 0);
  const mismatches: string[] = [];
  for (const id of short.expiresAt.keys()) {
    const request = await findPaymentRequest(id, true);
    if (request?.status === 'pending')
      mismatches.push(`payment request ${id}: past its expiry and grace, yet pending in the table`);
  }
  return mismatches;
}

/** How the simulated requests ended without a provider's answer. */
export function endsOf(requests: Iterable<PaymentRequest | undefined>): Record<string, number> {
  const ends: Record<string, number> = Object.fromEntries(endReasons.map((reason) => [reason, 0]));
  for (const request of requests) {
    const reason = request?.status === 'error' ? request.errorReason : null;
    if (reason && reason in ends) ends[reason] = (ends[reason] ?? 0) + 1;
  }
  return ends;
}
