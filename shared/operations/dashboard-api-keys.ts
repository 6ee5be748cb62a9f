import {
  type ApiKey,
  createApiKey,
  getApiKey,
  listBusinessApiKeys,
  revokeBusinessKeyWrite,
} from '#shared/data/api-key.ts';
import { getBusiness } from '#shared/data/business.ts';
import { listMembers } from '#shared/data/member.ts';
import { listStores } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import type { ApiKeyKind } from '#shared/domain/caller.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { ApiKeyLimitReached, ApiKeyNotFound } from '#shared/errors/api-keys.ts';
import { auditWriteFor } from '#shared/operations/audit-log.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';

/**
 * A business's own API keys, from the dashboard: listed with who made them and when they were last
 * used, made (at most `maxActiveKeys` live at once) and revoked. Each change is written in one
 * transaction with its audit entry.
 */
export const maxActiveKeys = 10;

/** What the key list shows: the three kinds a person chooses between. */
export type KeyKindChoice = 'merchant' | 'platform' | 'store_platform';

export const keyKindOf = (apiKey: Pick<ApiKey, 'kind' | 'storeId'>): KeyKindChoice =>
  apiKey.kind === 'merchant' ? 'merchant' : apiKey.storeId ? 'store_platform' : 'platform';

export interface ListedKey extends ApiKey {
  /** The member who made it, by name; undefined for a key made by a service provider or the operator. */
  createdByName?: string | undefined;
  storeName?: string | undefined;
}

/** Every key of the business, newest first, the live ones before the revoked ones. */
export async function apiKeysOf(member: ActingMember): Promise<{ keys: ListedKey[]; active: number }> {
  const [keys, members, stores] = await Promise.all([
    listBusinessApiKeys(member.businessId),
    listMembers(member.businessId),
    listStores(member.businessId),
  ]);
  const memberNames = new Map(members.map((candidate) => [candidate.id, candidate.name]));
  const storeNames = new Map(stores.map((store) => [store.id, store.name]));
  const listed = keys
    .map((apiKey) => ({
      ...apiKey,
      createdByName: memberNames.get(apiKey.memberId),
      storeName: apiKey.storeId ? storeNames.get(apiKey.storeId) : undefined,
    }))
    .sort(
      (a, b) =>
        Number(a.revokedAt !== undefined) - Number(b.revokedAt !== undefined) ||
        b.createdAt.localeCompare(a.createdAt),
    );
  return { keys: listed, active: keys.filter((apiKey) => !apiKey.revokedAt).length };
}

export interface NewKeyForm {
  name: string;
  kind: KeyKindChoice;
  storeId?: string | undefined;
}

export const maxKeyNameChars = 64;

export const isKeyKindChoice = (value: string): value is KeyKindChoice =>
  value === 'merchant' || value === 'platform' || value === 'store_platform';

/** The form's fields that are missing or wrong: a name, and a store of the business for a scoped key. */
export function invalidKeyFields(form: NewKeyForm, storeIds: readonly string[]): ('name' | 'storeId')[] {
  const invalid: ('name' | 'storeId')[] = [];
  if (form.name.trim() === '' || form.name.length > maxKeyNameChars) invalid.push('name');
  if (form.kind === 'store_platform' && !storeIds.includes(form.storeId ?? '')) invalid.push('storeId');
  return invalid;
}

/**
 * Makes a key and returns it with its secret, shown once. Ten live keys refuse an eleventh (409
 * `api_key_limit_reached`); a store that is not the business's is 404 `store_not_found`, checked in
 * the key's own transaction. Two keys made at the very same moment can both pass the count: the
 * limit keeps a business's keys few, it is not a security boundary.
 */
export async function createKeyFor(member: ActingMember, form: NewKeyForm, sourceIp: string) {
  const { active } = await apiKeysOf(member);
  if (active >= maxActiveKeys) throw new ApiKeyLimitReached(maxActiveKeys);
  const kind: ApiKeyKind = form.kind === 'merchant' ? 'merchant' : 'platform';
  const storeId = form.kind === 'store_platform' ? form.storeId : undefined;
  return createApiKey(
    { businessId: member.businessId, kind, storeId, memberId: member.memberId, name: form.name },
    (apiKey) => [
      auditWriteFor(member, {
        action: 'api_key_created',
        subjectId: apiKey.id,
        detail: `${form.name} (${form.kind})`,
        sourceIp,
      }),
    ],
  );
}

/** Revokes one of the business's keys: from the next request on, the API answers 401 for it. */
export async function revokeKeyOf(member: ActingMember, keyId: string, sourceIp: string): Promise<void> {
  if (!uuidPattern.test(keyId)) throw new ApiKeyNotFound();
  await transactWrite([
    revokeBusinessKeyWrite(member.businessId, keyId.toLowerCase(), new Date().toISOString()),
    auditWriteFor(member, { action: 'api_key_revoked', subjectId: keyId, sourceIp }),
  ]);
}

/** Whether the business's keys are let in yet: the dashboard says so beside the keys. */
export async function apiAccessOf(member: ActingMember): Promise<boolean> {
  return (await getBusiness(member.businessId))?.apiAccessEnabled === true;
}

/** What the keys page shows: the keys, whether the API lets them in, the stores a key may be scoped to. */
export async function keysOverview(member: ActingMember) {
  const [{ keys, active }, apiAccess, stores] = await Promise.all([
    apiKeysOf(member),
    apiAccessOf(member),
    listStores(member.businessId),
  ]);
  return { keys, active, apiAccess, stores, maxActive: maxActiveKeys };
}

/** A live key of the business by id, for the confirmation before revoking it: 404 otherwise. */
export async function liveKeyOf(member: ActingMember, keyId: string): Promise<ApiKey> {
  const apiKey = uuidPattern.test(keyId) ? await getApiKey(keyId.toLowerCase()) : undefined;
  if (!apiKey || apiKey.businessId !== member.businessId || apiKey.revokedAt) throw new ApiKeyNotFound();
  return apiKey;
}
