import type { CallerKind } from '#shared/api/endpoint.ts';
import type { ApiKey } from '#shared/data/api-key.ts';
import { getApiKey } from '#shared/data/api-key.ts';
import { type Business, getBusiness } from '#shared/data/business.ts';
import { apiKeySecretMatches } from '#shared/domain/api-key-secret.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { BusinessNotEnabledForApiAccess, ForbiddenAction, Unauthorized } from '#shared/errors/auth.ts';

/**
 * Key records and their business, cached per container so a warm function spends no read on
 * authentication. The price: revoking a key or API access takes effect within this time.
 */
const cacheTtlMs = Number(process.env.AUTH_CACHE_TTL_SECONDS ?? 60) * 1000;
const cache = new Map<string, { expiresAt: number; apiKey: ApiKey; business: Business }>();

async function loadKey(keyId: string): Promise<{ apiKey: ApiKey; business: Business } | undefined> {
  const cached = cache.get(keyId);
  if (cached && cached.expiresAt > Date.now()) return cached;
  const apiKey = await getApiKey(keyId);
  if (!apiKey) return undefined;
  const business = await getBusiness(apiKey.businessId);
  if (!business) return undefined;
  const entry = { expiresAt: Date.now() + cacheTtlMs, apiKey, business };
  if (cacheTtlMs > 0) cache.set(keyId, entry);
  return entry;
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
