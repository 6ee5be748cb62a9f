import { saveSubscription, type WebhookSubscription } from '#shared/data/webhook-subscription.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { webhookEventNames } from '#shared/domain/webhook-events.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { createPaymentLinkFor } from '#shared/operations/payment-links.ts';
import type { CollectionOutcome, PayoutOutcome } from '#shared/providers/port.ts';
import type { Random } from '#test/simulation/determinism.ts';
import { actingOwnerOf, merchant } from '#test/support/fixtures.ts';

/**
 * The simulated merchant and what the world knows of it: what the operations made, what the
 * providers decided (their own record, which the end's model reads instead of the ledger), and
 * what they still owe the service (callbacks to deliver).
 */
export interface Collection {
  reference: string;
  requestId: string;
  provider: ProviderCode;
  amount: number;
  outcome?: CollectionOutcome;
}

export interface World {
  random: Random;
  m: Awaited<ReturnType<typeof merchant>>;
  /** The owner, as the dashboard acts for it. */
  member: ActingMember;
  subscription: WebhookSubscription;
  linkId: string;
  baseUrl: string;
  providers: readonly ProviderCode[];
  /** The sandbox's silent number: nothing is queued; the simulation plays every provider itself. */
  payerPhone: string;
  /** The business's own account its withdrawals go to, once registered (issue 34). */
  payoutAccountId?: string;
  requests: string[];
  collections: Map<string, Collection>;
  /** Collections' callbacks the providers owe, each delivered once or more. */
  callbacks: { reference: string; deliveries: number }[];
  /** Payouts the providers decide: transfers, refunds, orphans' and escrows' refunds. */
  payouts: Set<string>;
  payoutCallbacks: { id: string; outcome: PayoutOutcome }[];
  escrows: string[];
  /** Requests made to expire within the run, with when. */
  shortLives: Map<string, number>;
  credits: { entryId: string; amount: number; done: boolean }[];
  sms: {
    /** Every SMS asked for, by reference: recorded or not, the model knows what it asked. */
    asked: Map<string, { to: string; body: string; segments: number; answered: boolean }>;
    credits: { entryId: string; segments: number; done: boolean }[];
    /** SMS credit bought from the store (issue 34): bought, refused for the store's balance, or not yet known. */
    purchases: { id: string; segments: number; priceCents: number; state: 'asked' | 'bought' | 'refused' }[];
    refusedForBalance: number;
  };
  counts: {
    callbacksDelivered: number;
    dashboardActions: number;
    stepUpTransfers: number;
    /** Withdrawals made, and SMS credit bought (issue 34). */
    withdrawals: number;
    smsPurchases: number;
  };
  /** What the run saw go wrong on the way (a disagreeing callback believed): reported as mismatches. */
  problems: string[];
}

export type Operation = { weight: number; name: string; run: (world: World) => Promise<void> };

export async function makeWorld(random: Random, receiverUrl: string): Promise<World> {
  const ownerPhone = '+2250707123456';
  const m = await merchant({ verificationLevel: 3, ownerPhone });
  const link = await createPaymentLinkFor(m.caller, {
    storeId: m.store.id,
    title: 'Simulated link',
    amountCents: 25_000,
    currency: 'XOF',
    allowMultiplePayments: true,
  });
  const subscription = await saveSubscription(
    { businessId: m.business.id, url: receiverUrl, name: 'Simulated shop', events: [...webhookEventNames] },
    { replace: false },
  );
  return {
    random,
    m,
    member: actingOwnerOf(m),
    subscription,
    linkId: link.id,
    baseUrl: 'http://localhost:0',
    providers: ['wave', 'orange', 'mtn', 'moov', 'djamo'],
    payerPhone: '+2250700000004',
    requests: [],
    collections: new Map(),
    callbacks: [],
    payouts: new Set(),
    payoutCallbacks: [],
    escrows: [],
    shortLives: new Map(),
    credits: [],
    sms: { asked: new Map(), credits: [], purchases: [], refusedForBalance: 0 },
    counts: {
      callbacksDelivered: 0,
      dashboardActions: 0,
      stepUpTransfers: 0,
      withdrawals: 0,
      smsPurchases: 0,
    },
    problems: [],
  };
}

/**
 * Takes `item` out of `list` if it is still there. Two operations under way at once may pick the
 * same callback; the second must not take out another (`indexOf` is -1, and `splice(-1, 1)`
 * would drop the last one, a callback never delivered: a provider's money the books never see).
 */
export function removeOnce<T>(list: T[], item: T): void {
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
}

/** A collection the providers may now decide. */
export function remember(
  world: World,
  requestId: string,
  provider: ProviderCode,
  amount: number,
  reference?: string,
) {
  if (reference) world.collections.set(reference, { reference, requestId, provider, amount });
}
