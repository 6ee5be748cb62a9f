import type { PayoutMethod, ProviderCode } from '#shared/domain/payment-methods.ts';
import type { PawapayKind, PawapayTransaction } from '#shared/providers/pawapay.ts';
import { pawapayMethodOf } from '#shared/providers/pawapay-providers.ts';
import type { CollectionOutcome, PayoutOutcome } from '#shared/providers/port.ts';
import { pawapayCallbacksFor } from '#shared/providers/routing.ts';
import { getSandboxPayout } from '#shared/providers/sandbox.ts';
import { pawapayFake } from '#test/fakes/pawapay-fake.ts';
import { type Random, simulatedOrigins, sleep } from '#test/simulation/determinism.ts';
import { type Network, trace } from '#test/simulation/network.ts';

/**
 * pawaPay in the simulation: Orange Money and Moov Money go through the real pawaPay adapter (its deposits under
 * the id recorded before the call, its status checks, its refunds and payouts, callbacks believed
 * only when the status check agrees), against pawaPay's contract fake answered in the process on
 * the clock (determinism.ts), so it never races real I/O. The fake decides nothing itself: the
 * simulation plays pawaPay as it plays the other providers, and its record is the providers'
 * truth the model reads. While faults are armed, a call's answer may be lost after pawaPay did it.
 */
export const pawapayRoutedMethods: readonly ProviderCode[] = ['orange', 'moov'];
const origin = 'http://pawapay.simulation';
const apiToken = 'simulation-token';

let fake: ReturnType<typeof pawapayFake> | undefined;
/** Callbacks that claimed the opposite of pawaPay's record, all refused (or the run reports it). */
let disagreeingRefused = 0;

export function startSimulatedPawapay(network: Network, random: Random): () => void {
  const current = pawapayFake({ apiToken, settlesItself: false });
  fake = current;
  disagreeingRefused = 0;
  Object.assign(process.env, {
    PROVIDER_ROUTES: JSON.stringify(Object.fromEntries(pawapayRoutedMethods.map((m) => [m, 'pawapay']))),
    // The adapter reads its base URL once per process: one origin for every run.
    PAWAPAY_BASE_URL: origin,
    PAWAPAY_PROVIDER_SECRET: JSON.stringify({ apiToken }),
  });
  simulatedOrigins.set(origin, async (url, init) => {
    const rawBody = typeof init?.body === 'string' ? init.body : '';
    const method = init?.method ?? 'GET';
    await sleep(random.int(20, 400));
    const answer = await current.route({
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: Object.fromEntries(
        Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      rawBody,
      body: rawBody ? JSON.parse(rawBody) : undefined,
    });
    if (network.armed && method === 'POST' && random.next() < network.faultRate * 2) {
      // Done at pawaPay, its answer lost on the way back: the adapter sends it again (DUPLICATE_IGNORED).
      network.faults.provider_answer_lost++;
      trace(`fault provider_answer_lost ${url.pathname}`);
      throw new TypeError('fetch failed');
    }
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return () => {
    simulatedOrigins.delete(origin);
    fake = undefined;
  };
}

export const throughPawapay = (method: ProviderCode) => pawapayRoutedMethods.includes(method);

const heldOf = (kind: PawapayKind, id: string) => fake?.held.get(`${kind}:${id}`);

/** The transaction as pawaPay's callback carries it. */
function callbackBody(
  kind: PawapayKind,
  id: string,
  claim?: Partial<PawapayTransaction>,
): string | undefined {
  const found = heldOf(kind, id);
  if (!found) return undefined;
  const { kind: _kind, ...transaction } = found;
  return JSON.stringify({ ...transaction, ...claim });
}

/** pawaPay decides a deposit (no callback yet: the simulation delivers it). Answers whether it was open. */
export async function decidePawapayDeposit(id: string, outcome: CollectionOutcome): Promise<boolean> {
  if (!fake) return false;
  const failure = outcome === 'insufficient_funds' ? 'INSUFFICIENT_BALANCE' : 'PAYMENT_NOT_APPROVED';
  const settled = await fake.settle(
    'deposits',
    id,
    outcome === 'success' ? 'COMPLETED' : 'FAILED',
    outcome === 'success' ? undefined : failure,
    false,
  );
  return settled.status === 200;
}

/**
 * A deposit's callback as pawaPay sends it, through the adapter's checks. A callback that claims
 * the opposite of pawaPay's record (a forgery, a replay of another state) must be refused: answers
 * a problem when it was believed.
 */
export async function pawapayDepositCallback(id: string, disagreeing: boolean) {
  const status = heldOf('deposits', id)?.status;
  const claim = disagreeing ? { status: status === 'COMPLETED' ? 'FAILED' : 'COMPLETED' } : undefined;
  const body = callbackBody('deposits', id, claim);
  if (!body) return { callback: undefined };
  const callback = await pawapayCallbacksFor('deposits').verifyCallback({}, body, {}, undefined);
  if (disagreeing && callback)
    return {
      callback: undefined,
      problem: `deposit ${id}: a callback claiming ${claim?.status} was believed`,
    };
  if (disagreeing) disagreeingRefused++;
  return { callback: disagreeing ? undefined : callback };
}

const payoutKindOf = (id: string): PawapayKind | undefined =>
  heldOf('payouts', id) ? 'payouts' : heldOf('refunds', id) ? 'refunds' : undefined;

/** What the provider that has a payout (the sandbox or pawaPay) knows of it: its truth. */
export async function payoutTruth(
  id: string,
): Promise<
  | { state: 'pending' | PayoutOutcome; method: PayoutMethod; amountCents: number; providerReference: string }
  | undefined
> {
  const kind = payoutKindOf(id);
  if (!kind) return getSandboxPayout(id);
  const found = heldOf(kind, id) as PawapayTransaction;
  const party =
    kind === 'payouts' ? found.recipient : heldOf('deposits', found.metadata?.depositId ?? '')?.payer;
  const state = found.status === 'COMPLETED' ? 'success' : found.status === 'FAILED' ? 'declined' : 'pending';
  return {
    state,
    method: pawapayMethodOf(party?.accountDetails.provider) ?? 'moov',
    amountCents: Number(found.amount) * 100,
    providerReference: id,
  };
}

/** pawaPay decides a payout or a refund (the simulation delivers its callback). Whether it was open. */
export async function decidePawapayPayout(id: string, outcome: PayoutOutcome): Promise<boolean | undefined> {
  const kind = payoutKindOf(id);
  if (!kind || !fake) return undefined;
  const settled = await fake.settle(
    kind,
    id,
    outcome === 'success' ? 'COMPLETED' : 'FAILED',
    outcome === 'success' ? undefined : 'RECIPIENT_NOT_FOUND',
    false,
  );
  return settled.status === 200;
}

/** A payout's or refund's callback through the adapter's checks; undefined when it is not pawaPay's. */
export async function pawapayPayoutCallback(id: string) {
  const kind = payoutKindOf(id);
  const body = kind && callbackBody(kind, id);
  if (!kind || !body) return undefined;
  return (await pawapayCallbacksFor(kind).verifyPayoutCallback({}, body, {}, undefined)) ?? null;
}

/** What went through pawaPay in the run, by kind and final status: the report shows the paths were met. */
export function pawapayTally() {
  const tally: Record<string, number> = { disagreeingCallbacksRefused: disagreeingRefused };
  for (const transaction of fake?.held.values() ?? []) {
    const key = `${transaction.kind}.${transaction.status.toLowerCase()}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
}
