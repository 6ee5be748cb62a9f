import {
  type ProviderHealth,
  providerHealthSince,
  recordProviderFailure,
  recordProviderRecovery,
} from '#shared/data/provider-health.ts';
import { operatorHealthRule } from '#shared/domain/operator-health.ts';
import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import { ProviderUnavailable } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import { count } from '#shared/metrics.ts';
import type { PaymentProvider } from '#shared/providers/port.ts';

/**
 * How long a container trusts what it read of an operator's status (its health here, pawaPay's
 * availability there): OPERATOR_STATUS_CACHE_SECONDS, 30 by default (a test host sets 1).
 */
export const operatorStatusCacheMs = (): number =>
  1_000 * (Number(process.env.OPERATOR_STATUS_CACHE_SECONDS) || 30);
const cache = new Map<string, { at: number; health: Promise<ProviderHealth> }>();

function healthOf(adapter: string, method: string, now: number): Promise<ProviderHealth> {
  const key = `${adapter}#${method}`;
  const cached = cache.get(key);
  if (cached && now - cached.at < operatorStatusCacheMs()) return cached.health;
  const since = new Date(now - operatorHealthRule.windowMinutes * 60_000);
  const health = providerHealthSince(adapter, method, since).catch((error: unknown) => {
    // Unknown health is no reason to turn a payer away: the call itself will tell.
    logger.warn('operator health not read', { adapter, method, error: error as Error });
    cache.delete(key);
    return { failures: 0 };
  });
  cache.set(key, { at: now, health });
  return health;
}

export const isDown = (health: ProviderHealth): boolean =>
  health.failures >= operatorHealthRule.failureThreshold &&
  !(health.recoveredAt && health.lastFailureAt && health.recoveredAt > health.lastFailureAt);

/** Whether a direct adapter's calls to this operator have been failing (the rule above). */
export async function failingOperator(adapter: string, method: string, now = Date.now()): Promise<boolean> {
  return isDown(await healthOf(adapter, method, now));
}

/** Forgets what was read, so the next question reads the table again (tests; after a write here). */
export function forgetOperatorHealth(): void {
  cache.clear();
}

async function noted<T>(adapter: string, method: PayoutMethod, call: () => Promise<T>): Promise<T> {
  try {
    const result = await call();
    // Failing lately, as this container last read it: that it answers again lifts the rule at once.
    const known = cache.get(`${adapter}#${method}`);
    if (known && (await known.health).failures > 0) {
      await recordProviderRecovery(adapter, method).catch(() => undefined);
      cache.delete(`${adapter}#${method}`);
    }
    return result;
  } catch (error) {
    if (error instanceof ProviderUnavailable) {
      count('ProviderFailures', { provider: method });
      await recordProviderFailure(adapter, method).catch((failed: unknown) =>
        logger.warn('provider failure not recorded', { adapter, method, error: failed as Error }),
      );
      cache.delete(`${adapter}#${method}`);
    }
    throw error;
  }
}

/** A direct adapter whose starts are noted, their failures and the recovery after them. */
export function watchedProvider(
  adapter: string,
  method: PayoutMethod,
  provider: PaymentProvider,
): PaymentProvider {
  const refundCollection = provider.refundCollection;
  return {
    ...provider,
    startCollection: (request) => noted(adapter, method, () => provider.startCollection(request)),
    startPayout: (request) => noted(adapter, method, () => provider.startPayout(request)),
    ...(refundCollection
      ? {
          refundCollection: (request) =>
            noted(adapter, method, () => refundCollection.call(provider, request)),
        }
      : {}),
  };
}
