import type { CallerKind } from '#shared/api/endpoint.ts';
import type { ApiKey } from '#shared/data/api-key.ts';
import { getApiKey, lastUseIsDue, recordApiKeyUse } from '#shared/data/api-key.ts';
import { type Business, getBusiness } from '#shared/data/business.ts';
import { apiKeySecretMatches } from '#shared/domain/api-key-secret.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { BusinessNotEnabledForApiAccess, ForbiddenAction, Unauthorized } from '#shared/errors/auth.ts';
import { logger } from '#shared/logger.ts';

/**
 * The key record is read on every request (strongly consistent, 1 RCU), so a key revoked on the
 * dashboard is refused from the next request on, in every container. Its business is cached per
 * container: turning API access on or off takes effect within this time.
 */
const cacheTtlMs = Number(process.env.AUTH_CACHE_TTL_SECONDS ?? 60) * 1000;
const cache = new Map<string, { expiresAt: number; business: Business }>();

async function businessOf(businessId: string): Promise<Business | undefined> {
  const cached = cache.get(businessId);
  if (cached && cached.expiresAt > Date.now()) return cached.business;
  const business = await getBusiness(businessId);
  if (business && cacheTtlMs > 0) cache.set(businessId, { expiresAt: Date.now() + cacheTtlMs, business });
  return business;
}

async function loadKey(keyId: string): Promise<{ apiKey: ApiKey; business: Business } | undefined> {
  const apiKey = await getApiKey(keyId);
  if (!apiKey) return undefined;
  const business = await businessOf(apiKey.businessId);
  return business ? { apiKey, business } : undefined;
}

/** At most one write an hour per key: a failure to record it never refuses the request. */
async function noteUse(apiKey: ApiKey): Promise<void> {
  const now = new Date();
  if (!lastUseIsDue(apiKey, now)) return;
  try {
    await recordApiKeyUse(apiKey.id, now);
  } catch (error) {
    logger.warn("the key's last use was not recorded", { keyId: apiKey.id, error: error as Error });
  }
}

/**
 * Authenticates X-API-KEY-ID + X-API-KEY and checks the caller kind of the route, in the order of
 * the interface: wrong or missing keys 401, business without API access 403
 * business_not_enabled_for_api_access, key without the right for the route 403 forbidden_action.
 */
export async function authenticate(
  headers: Record<string, string | undefined>,
  required: Exclude<CallerKind, 'public'>,
): Promise<Caller> {
  const keyId = headers['x-api-key-id'];
  const secret = headers['x-api-key'];
  if (!keyId || !secret || !uuidPattern.test(keyId)) throw new Unauthorized();
  const found = await loadKey(keyId.toLowerCase());
  if (!found || found.apiKey.revokedAt || !apiKeySecretMatches(secret, found.apiKey.secretHash))
    throw new Unauthorized();
  const { apiKey, business } = found;
  await noteUse(apiKey);
  if (!business.apiAccessEnabled) throw new BusinessNotEnabledForApiAccess();
  if (required === 'platform_key' && apiKey.kind !== 'platform') {
    throw new ForbiddenAction('This action requires a platform API key');
  }
  if (required === 'service_provider' && !business.isServiceProvider) {
    throw new ForbiddenAction('This action is reserved to service providers');
  }
  return {
    businessId: business.id,
    keyId: apiKey.id,
    keyKind: apiKey.kind,
    storeId: apiKey.storeId,
    memberId: apiKey.memberId,
    isServiceProvider: business.isServiceProvider,
    verificationLevel: business.verificationLevel,
  };
}

/** For tests that change a key or business and must see it at once. */
export function clearAuthenticationCache(): void {
  cache.clear();
}
