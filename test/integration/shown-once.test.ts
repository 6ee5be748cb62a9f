import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { DashboardSession } from '#shared/data/dashboard-session.ts';
import type { PageRequest } from '#shared/http/page-handler.ts';
import { keepToShowOnce, takeToShowOnce } from '#shared/http/shown-once.ts';
import { sessionIdHash } from '#shared/operations/dashboard-sessions.ts';

/**
 * A secret kept by a post for the page it redirects to (issue 35), against DynamoDB Local: the
 * page takes it once; the table holds it sealed; only the browser's session cookie opens it; it
 * lasts 10 minutes.
 */
const baseUrl = 'http://localhost:3000';

function aSession() {
  const id = randomBytes(32).toString('base64url');
  const session = { idHash: sessionIdHash(id), userId: 'user', csrfToken: 'token' } as DashboardSession;
  const request = { baseUrl, headers: { cookie: `session=${id}` } } as unknown as PageRequest<object>;
  return { id, session, request };
}

const secret = { id: 'key', name: 'Caisse', secret: 'sk_live_très_secret' };

describe('a value shown once', () => {
  it('is taken once by the session that kept it: a second look finds nothing', async () => {
    const { session, request } = aSession();
    await keepToShowOnce(request, session, 'api-key', secret);
    expect(await takeToShowOnce(request, session, 'api-key')).toEqual(secret);
    expect(await takeToShowOnce(request, session, 'api-key')).toBeUndefined();
  });

  it('is kept sealed: the table holds neither the secret nor the key that opens it', async () => {
    const { id, session, request } = aSession();
    await keepToShowOnce(request, session, 'webhook-secret', { secret: 'whsec_abc123', made: 'created' });
    const { Item } = await documentClient.send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: `SESSION#${session.idHash}`, sk: 'SHOWN_ONCE#webhook-secret' },
      }),
    );
    const stored = JSON.stringify(Item);
    expect(stored).not.toContain('whsec_abc123');
    expect(stored).not.toContain(id);
    expect(Item?.ttl).toBeGreaterThan(Date.now() / 1000);
  });

  it('opens with no other cookie, and is then gone all the same', async () => {
    const { session, request } = aSession();
    await keepToShowOnce(request, session, 'api-key', secret);
    const other = aSession();
    const forged = { ...request, headers: other.request.headers } as PageRequest<object>;
    expect(await takeToShowOnce(forged, session, 'api-key')).toBeUndefined();
    expect(await takeToShowOnce(request, session, 'api-key')).toBeUndefined();
  });

  it('is not shown past its 10 minutes', async () => {
    const { session, request } = aSession();
    const madeAt = new Date();
    await keepToShowOnce(request, session, 'api-key', secret, madeAt);
    expect(
      await takeToShowOnce(request, session, 'api-key', new Date(madeAt.getTime() + 10 * 60_000 + 1)),
    ).toBeUndefined();
  });
});
