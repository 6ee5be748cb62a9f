import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import type { AdapterName } from '#shared/providers/adapters.ts';
import { mtnApiFromEnvironment, mtnCallbacks, mtnProvider } from '#shared/providers/mtn.ts';
import type { CallbackVerifier, PaymentProvider } from '#shared/providers/port.ts';
import { sandboxCallbacks, sandboxProvider } from '#shared/providers/sandbox.ts';
import { waveCallbacks, waveConfigFromEnvironment, waveProvider } from '#shared/providers/wave.ts';

/**
 * The stage's routing, payment method → adapter, as JSON in PROVIDER_ROUTES (the stack sets it from
 * the stage configuration, the local host from PROVIDERS). A method it does not name goes to the
 * sandbox on sandbox stages and is refused on production.
 */
export function providerRoutes(): Partial<Record<PayoutMethod, AdapterName>> {
  const raw = process.env.PROVIDER_ROUTES;
  return raw ? (JSON.parse(raw) as Partial<Record<PayoutMethod, AdapterName>>) : {};
}

/** The adapter that serves a payment method on this stage, both ways. */
function routedAdapter(method: PayoutMethod): AdapterName {
  const routed = providerRoutes()[method];
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
  sandbox: () => sandboxProvider,
});

const callbacks = /* @__PURE__ */ adapterSide<CallbackVerifier>({
  wave: () => waveCallbacks(waveConfigFromEnvironment()),
  mtn: () => mtnCallbacks(mtnApiFromEnvironment()),
  sandbox: () => sandboxCallbacks,
});

/** The provider that serves a payment method on this stage: collections, payouts, status queries. */
export function providerFor(method: PayoutMethod): PaymentProvider {
  return outgoing(routedAdapter(method));
}

/**
 * The checks of the callbacks sent for a payment method (the callback routes' `{provider}`): those
 * of the adapter that serves it, so a callback is believed only from where the payment was sent.
 */
export function callbackVerifierFor(method: PayoutMethod): CallbackVerifier {
  return callbacks(routedAdapter(method));
}
