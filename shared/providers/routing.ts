import { operatorHealthRule } from '#shared/domain/operator-health.ts';
import { type PayoutMethod, type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';
import { countryOfNumber } from '#shared/domain/phone-numbers.ts';
import { type UemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';
import { OperatorUnavailable, ProviderRefused } from '#shared/errors/providers.ts';
import { count } from '#shared/metrics.ts';
import {
  type AdapterName,
  adapterOfRoute,
  adaptersOfRoute,
  providerRoutes,
} from '#shared/providers/adapters.ts';
import { mtnApiFromEnvironment, mtnCallbacks, mtnProvider } from '#shared/providers/mtn.ts';
import { failingOperator, watchedProvider } from '#shared/providers/operator-health.ts';
import {
  type PawapayKind,
  pawapayApiFromEnvironment,
  pawapayCallbacks,
  pawapayProvider,
} from '#shared/providers/pawapay.ts';
import type { CallbackVerifier, PaymentProvider, ProviderOperation } from '#shared/providers/port.ts';
import { sandboxCallbacks, sandboxProvider } from '#shared/providers/sandbox.ts';
import { waveCallbacks, waveConfigFromEnvironment, waveProvider } from '#shared/providers/wave.ts';

/** Whose money it is: the payer's or beneficiary's number, else the store's country. */
export interface RouteParty {
  phone?: string | undefined;
  country?: UemoaCountry | undefined;
}

/** The adapter that serves a payment method for a party on this stage, both ways. */
function routedAdapter(method: PayoutMethod, party: RouteParty = {}): AdapterName {
  const country = countryOfParty(party);
  const routed = adapterOfRoute(providerRoutes()[method], country);
  if (routed) return routed;
  if (process.env.SANDBOX === 'true') return 'sandbox';
  throw new ProviderRefused(`No payment provider serves ${method} on this stage yet`);
}

/** One side of every adapter, each built once per container on first use. */
function adapterSide<Side>(build: Record<AdapterName, () => Side>): (name: AdapterName) => Side {
  const built = new Map<AdapterName, Side>();
  return (name) => {
    let found = built.get(name);
    if (!found) {
      found = build[name]();
      built.set(name, found);
    }
    return found;
  };
}

// The two sides apart, each marked pure: a function that never receives a callback does not
// reference `callbacks`, so esbuild leaves the callback checks out of its bundle, and with them
// the sandbox's body schema (zod).
const outgoing = /* @__PURE__ */ adapterSide<PaymentProvider>({
  wave: () => waveProvider(waveConfigFromEnvironment()),
  mtn: () => mtnProvider(mtnApiFromEnvironment()),
  pawapay: () => pawapayProvider(pawapayApiFromEnvironment()),
  sandbox: () => sandboxProvider,
});

const callbacks = /* @__PURE__ */ adapterSide<CallbackVerifier>({
  wave: () => waveCallbacks(waveConfigFromEnvironment()),
  mtn: () => mtnCallbacks(mtnApiFromEnvironment()),
  // pawaPay calls back on routes of its own (pawapayCallbacksFor), never on a method's.
  pawapay: () => refusingCallbacks,
  sandbox: () => sandboxCallbacks,
});

const refusingCallbacks: CallbackVerifier = {
  verifyCallback: async () => undefined,
  verifyPayoutCallback: async () => undefined,
};

/**
 * The provider that serves a payment method on this stage for a party (the payer, or the
 * beneficiary): collections, payouts, status queries. A status query names the same party as the
 * start, so it reaches the adapter that started it.
 */
export function providerFor(method: PayoutMethod, party: RouteParty = {}): PaymentProvider {
  const adapter = routedAdapter(method, party);
  // A direct adapter learns that its operator is down from its own failures, which are noted.
  return adapter === 'wave' || adapter === 'mtn'
    ? watchedProvider(adapter, method, outgoing(adapter))
    : outgoing(adapter);
}

let pawapayStatus: PaymentProvider | undefined;

const countryOfParty = (party: RouteParty) =>
  (party.phone ? countryOfNumber(party.phone) : undefined) ?? party.country;

/**
 * Whether the operator of a method is down for a party's country right now: closed by pawaPay's
 * published availability, or failing through a direct adapter (operator-health.ts). The sandbox
 * and a method no adapter serves are never "down" (the latter is refused as unserved).
 */
export async function operatorDown(
  method: PayoutMethod,
  party: RouteParty,
  operation: ProviderOperation,
): Promise<boolean> {
  const country = countryOfParty(party);
  const adapter = adapterOfRoute(providerRoutes()[method], country);
  if (!adapter || adapter === 'sandbox' || method === 'bank') return false;
  if (adapter === 'wave' || adapter === 'mtn') return failingOperator(adapter, method);
  if (!country) return false;
  // pawaPay alone publishes its operators' status; read through its own provider, so a page
  // that asks does not carry every adapter.
  pawapayStatus ??= pawapayProvider(pawapayApiFromEnvironment());
  return (await pawapayStatus.operatorClosed?.(method, country, operation)) === true;
}

/**
 * Refuses, before anything is written, a collection, payout or refund whose operator is down:
 * 503 `provider_unavailable` with when to come back.
 */
export async function assertOperatorAvailable(
  method: PayoutMethod,
  party: RouteParty,
  operation: ProviderOperation,
): Promise<void> {
  if (!(await operatorDown(method, party, operation))) return;
  count('OperatorUnavailable', { provider: method });
  throw new OperatorUnavailable(method, operatorHealthRule.retryAfterSeconds, countryOfParty(party));
}

/** Operators down for collections, each as `<method>:<country>`: what the payer pages leave out. */
export type OperatorsDown = ReadonlySet<`${ProviderCode}:${UemoaCountry}`>;

/**
 * Every operator of the zone down for collections now. Cheap to ask on every page: pawaPay's
 * availability is one call a minute, a direct adapter's health one query per operator and 30 s.
 */
export async function operatorsDownNow(): Promise<OperatorsDown> {
  const pairs = providerCodes.flatMap((code) => uemoaCountries.map((country) => ({ code, country })));
  const down = await Promise.all(
    pairs.map(async ({ code, country }) =>
      (await operatorDown(code, { country }, 'collection')) ? [`${code}:${country}` as const] : [],
    ),
  );
  return new Set(down.flat());
}

/**
 * The checks of the callbacks sent for a payment method (the callback routes' `{provider}`): those
 * of the direct adapter that serves it in some country (pawaPay has routes of its own), so a
 * callback is believed only from where the payment was sent.
 */
export function callbackVerifierFor(method: PayoutMethod): CallbackVerifier {
  const direct = adaptersOfRoute(providerRoutes()[method]).find((adapter) => adapter !== 'pawapay');
  return callbacks(direct ?? routedAdapter(method));
}

/**
 * The checks of pawaPay's callbacks of one kind (`/provider_callbacks/pawapay/{kind}`): on a stage
 * whose routes name pawaPay nowhere, every such callback is refused, unread.
 */
export function pawapayCallbacksFor(kind: PawapayKind): CallbackVerifier {
  const routed = Object.values(providerRoutes()).some((route) => adaptersOfRoute(route).includes('pawapay'));
  return routed ? pawapayCallbacks(pawapayApiFromEnvironment(), kind) : refusingCallbacks;
}
