import { describe, expect, it } from 'vitest';
import { createApiKey, getApiKey, recordApiKeyUse } from '#shared/data/api-key.ts';
import {
  type AuditAction,
  listAuditEntries,
  newAuditEntry,
  putAuditEntry,
} from '#shared/data/audit-entry.ts';
import { createBusiness } from '#shared/data/business.ts';
import { ApiKeyNotFound } from '#shared/errors/api-keys.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { revokeKeyOf } from '#shared/operations/dashboard-api-keys.ts';

/** The audit log's listing (pages, filters, days) and the keys' last use and revocation, on DynamoDB Local. */
async function business() {
  const { business, owner } = await createBusiness({
    name: 'Journal',
    apiAccessEnabled: true,
    isServiceProvider: false,
    verificationLevel: 1,
  });
  const member: ActingMember = {
    businessId: business.id,
    businessName: business.name,
    memberId: owner.id,
    userId: crypto.randomUUID(),
    role: 'owner',
    isServiceProvider: false,
    verificationLevel: 1,
  };
  return { business, owner, member };
}

describe('the audit log', () => {
  it('lists a business’s entries newest first, a page at a time, filtered by action, member and days', async () => {
    const { business: mine } = await business();
    const { business: theirs } = await business();
    const someone = crypto.randomUUID();
    const entries: [string, AuditAction, string][] = [
      ['2026-01-10T08:00:00.000Z', 'sign_in', someone],
      ['2026-01-11T08:00:00.000Z', 'api_key_created', someone],
      ['2026-01-12T08:00:00.000Z', 'api_key_revoked', 'another'],
      ['2026-01-13T08:00:00.000Z', 'sign_in', 'another'],
      ['2026-01-14T08:00:00.000Z', 'webhook_created', someone],
    ];
    for (const [at, action, memberId] of entries)
      await putAuditEntry(
        newAuditEntry({ businessId: mine.id, at, action, actor: { memberId }, sourceIp: '203.0.113.9' }),
      );
    await putAuditEntry(
      newAuditEntry({
        businessId: theirs.id,
        at: '2026-01-12T09:00:00.000Z',
        action: 'sign_in',
        actor: {},
        sourceIp: '',
      }),
    );

    const first = await listAuditEntries(mine.id, { limit: 2 });
    expect(first.entries.map((entry) => entry.action)).toEqual(['webhook_created', 'sign_in']);
    const second = await listAuditEntries(mine.id, { limit: 2, after: first.next });
    expect(second.entries.map((entry) => entry.at.slice(0, 10))).toEqual(['2026-01-12', '2026-01-11']);
    const last = await listAuditEntries(mine.id, { limit: 2, after: second.next });
    expect(last.entries.map((entry) => entry.action)).toEqual(['sign_in']);
    expect(last.next).toBeUndefined();

    expect((await listAuditEntries(mine.id, { limit: 50, action: 'sign_in' })).entries).toHaveLength(2);
    expect((await listAuditEntries(mine.id, { limit: 50, memberId: someone })).entries).toHaveLength(3);
    const days = await listAuditEntries(mine.id, { limit: 50, from: '2026-01-11', to: '2026-01-12' });
    expect(days.entries.map((entry) => entry.action)).toEqual(['api_key_revoked', 'api_key_created']);
    expect(days.entries[0]).toMatchObject({ sourceIp: '203.0.113.9', actor: { memberId: 'another' } });
  });
});

describe('keys from the dashboard', () => {
  it('record their last use at most once an hour', async () => {
    const { business: made, owner } = await business();
    const { apiKey } = await createApiKey({
      businessId: made.id,
      kind: 'merchant',
      memberId: owner.id,
      name: 'k',
    });
    const now = new Date('2026-02-01T10:00:00.000Z');
    await recordApiKeyUse(apiKey.id, now);
    await recordApiKeyUse(apiKey.id, new Date(now.getTime() + 59 * 60_000));
    expect((await getApiKey(apiKey.id))?.lastUsedAt).toBe(now.toISOString());
    const later = new Date(now.getTime() + 61 * 60_000);
    await recordApiKeyUse(apiKey.id, later);
    expect((await getApiKey(apiKey.id))?.lastUsedAt).toBe(later.toISOString());
  });

  it('are revoked with their audit entry, and another business’s key is not found and left as it is', async () => {
    const mine = await business();
    const theirs = await business();
    const { apiKey } = await createApiKey({
      businessId: theirs.business.id,
      kind: 'merchant',
      memberId: theirs.owner.id,
      name: 'theirs',
    });
    await expect(revokeKeyOf(mine.member, apiKey.id, '198.51.100.1')).rejects.toBeInstanceOf(ApiKeyNotFound);
    expect((await getApiKey(apiKey.id))?.revokedAt).toBeUndefined();
    expect((await listAuditEntries(mine.business.id, { limit: 10 })).entries).toEqual([]);

    await revokeKeyOf(theirs.member, apiKey.id, '198.51.100.2');
    expect((await getApiKey(apiKey.id))?.revokedAt).toEqual(expect.any(String));
    const [entry] = (await listAuditEntries(theirs.business.id, { limit: 10 })).entries;
    expect(entry).toMatchObject({
      action: 'api_key_revoked',
      subjectId: apiKey.id,
      sourceIp: '198.51.100.2',
    });
  });
});
