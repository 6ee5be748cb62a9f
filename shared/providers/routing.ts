import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import type { AdapterName } from '#shared/providers/adapters.ts';
import { mtnFromEnvironment } from '#shared/providers/mtn.ts';
import { type PaymentProvider, ProviderRefused } from '#shared/providers/port.ts';
import { sandboxProvider } from '#shared/providers/sandbox.ts';
import { waveFromEnvironment } from '#shared/providers/wave.ts';

/**
 * The stage's routing, payment method → adapter, as JSON in PROVIDER_ROUTES (the stack sets it from
 * the stage configuration, the local host from PROVIDERS). A method it does not name goes to the
 * sandbox on sandbox stages and is refused on production.
 */
export function providerRoutes(): Partial<Record<PayoutMethod, AdapterName>> {
  const raw = process.env.PROVIDER_ROUTES;
  return raw ? (JSON.parse(raw) as Partial<Record<PayoutMethod, AdapterName>>) : {};
}

const adapters = new Map<AdapterName, PaymentProvider>();

function adapter(name: AdapterName): PaymentProvider {
  let found = adapters.get(name);
  if (!found) {
    found = name === 'wave' ? waveFromEnvironment() : name === 'mtn' ? mtnFromEnvironment() : sandboxProvider;
    adapters.set(name, found);
  }
  return found;
}

/** The provider that serves a payment method on this stage. */
export function providerFor(method: PayoutMethod): PaymentProvider {
  const routed = providerRoutes()[method];
  if (routed) return adapter(routed);
  if (process.env.SANDBOX === 'true') return sandboxProvider;
  throw new ProviderRefused(`No payment provider serves ${method} on this stage yet`);
}
