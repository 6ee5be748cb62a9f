import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';

const { config, dataDir } = inject('localHost');
const execFileAsync = promisify(execFile);

/** The receiver the smoke test's webhook must reach: it records what it is sent. */
const received: Array<{ headers: Record<string, unknown>; body: Record<string, unknown> }> = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push({ headers: request.headers, body: JSON.parse(body) as Record<string, unknown> });
    response.writeHead(200).end();
  });
});
let receiverUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const smoke = (...args: string[]) => smokeWith({}, ...args);

const smokeWith = (env: Record<string, string>, ...args: string[]) =>
  execFileAsync(process.execPath, ['--import', 'tsx', 'infra/smoke.ts', ...args], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, ...env },
  });

const adminJson = async (...args: string[]) => {
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', 'infra/admin.ts', ...args, '--json'],
    { cwd: projectRoot, env: { ...process.env, DATA_DIR: dataDir } },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
};

describe('npm run smoke -- --stage local', () => {
  it('takes a sandbox payment end to end, delivers its webhook, audits and retires its business', async () => {
    const { stdout } = await smoke('--stage', 'local', '--webhook-url', receiverUrl);
    expect(stdout).toContain(`smoke on local at ${config.baseUrl}`);
    expect(stdout).toContain('payment succeeded with its transaction');
    expect(stdout).toContain(`webhook TRANSACTION_COMPLETED delivered to ${receiverUrl}`);
    expect(stdout).toContain('audit: the books balance');
    expect(stdout).toMatch(/smoke: passed\n$/);

    // The receiver really got the signed event of the smoke payment.
    const completed = received.find((delivery) => delivery.headers['svc-event'] === 'TRANSACTION_COMPLETED');
    expect(completed?.headers['svc-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(completed?.body).toMatchObject({ amount: { amount: 10_000, currency: 'XOF' }, status: 'success' });

    // Cleaned up: a second retire finds API access already off and no subscription left.
    const businessId = /business (\S+) retired/.exec(stdout)?.[1];
    expect(businessId).toBeDefined();
    const again = await adminJson('retire-business', '--business', String(businessId));
    expect(again).toMatchObject({ apiAccessEnabled: false, webhookSubscriptionRemoved: false });
  }, 120_000);

  it('skips the webhook step without a receiver, and refuses an unknown stage clearly', async () => {
    const { stdout } = await smoke('--stage', 'local');
    expect(stdout).toContain('webhook step skipped (no --webhook-url)');
    expect(stdout).toMatch(/smoke: passed\n$/);

    const unknown = await smoke('--stage', 'no-such-stage').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(unknown).toMatchObject({ code: 2 });
    expect((unknown as { stderr: string }).stderr).toContain('no-such-stage');
  }, 120_000);

  it("reads with the stage's smoke key and writes nothing when read-only, as on production", async () => {
    const { businessId } = await adminJson('create-business', '--name', 'Smoke key');
    const { storeId } = await adminJson('create-store', '--business', String(businessId), '--name', 'Smoke');
    const smokeKey = await adminJson('create-key', '--business', String(businessId));
    const before = await fetch(`${config.baseUrl}/partner_api/transactions`, {
      headers: { 'X-API-KEY-ID': String(smokeKey.keyId), 'X-API-KEY': String(smokeKey.key) },
    }).then((response) => response.json() as Promise<Record<string, unknown>>);

    const { stdout } = await smokeWith(
      { SMOKE_KEY: JSON.stringify({ keyId: smokeKey.keyId, key: smokeKey.key }) },
      '--stage',
      'local',
      '--read-only',
    );
    expect(stdout).toContain(`smoke on local at ${config.baseUrl} (read-only)`);
    expect(stdout).toContain('stores: 1');
    expect(stdout).toContain('balance read');
    expect(stdout).toContain('an unknown payment request is not found');
    expect(stdout).toContain('an unsigned provider callback is refused');
    expect(stdout).not.toContain('created');
    expect(stdout).toMatch(/smoke: passed\n$/);
    // The smoke business is left as it was: same store, no transaction, API access still on.
    const after = await fetch(`${config.baseUrl}/partner_api/transactions`, {
      headers: { 'X-API-KEY-ID': String(smokeKey.keyId), 'X-API-KEY': String(smokeKey.key) },
    }).then((response) => response.json() as Promise<Record<string, unknown>>);
    expect({ total: after.total, data: after.data }).toEqual({ total: before.total, data: before.data });
    expect(before.total).toBe(0);
    expect(storeId).toBeDefined();

    const withoutKey = await smoke('--stage', 'local', '--read-only').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(withoutKey).toMatchObject({ code: 2 });
    expect((withoutKey as { stderr: string }).stderr).toContain('SMOKE_KEY');

    const wrongKey = await smokeWith(
      { SMOKE_KEY: JSON.stringify({ keyId: smokeKey.keyId, key: 'not-the-key' }) },
      '--stage',
      'local',
      '--read-only',
    ).catch((error: { code: number; stderr: string }) => error);
    expect(wrongKey).toMatchObject({ code: 1 });
    expect((wrongKey as { stderr: string }).stderr).toContain('list the stores: expected 200, got 401');
  }, 120_000);
});
