import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';
import { apiClient, newMerchant, newStore } from '#test/support/api-client.ts';
import { admin, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { startWebhookReceiver } from '#test/support/webhook-receiver.ts';

const execFileAsync = promisify(execFile);

async function answers(url: string) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

async function javaProcessesUsing(dataDir: string) {
  const { stdout } = await execFileAsync('ps', ['-eo', 'args']);
  return stdout.split('\n').filter((line) => line.includes('DynamoDBLocal') && line.includes(dataDir));
}

/** The data of a host the first test stopped, for the admin command to work on offline. */
let stoppedDataDir: string | undefined;

describe('the local host', () => {
  // Two starts of the host: more than the project's 60 s on a loaded machine.
  it('stops on Ctrl-C without leaving DynamoDB Local behind, and a restart keeps the data and the demo', {
    timeout: 300_000,
  }, async () => {
    const dataDir = newDataDir();
    const first = await startLocalHost(dataDir);
    const storeId = await newStore(dataDir, first.config.demo.businessId, 'Kept across restarts');

    expect(await first.stop()).toBe(0);
    expect(await answers(first.config.endpoints.dynamodb)).toBe(false);
    expect(await javaProcessesUsing(dataDir)).toEqual([]);

    const second = await startLocalHost(dataDir);
    try {
      expect(second.config.demo).toEqual(first.config.demo);
      expect(second.output()).toContain('The demo business from the last run');
      const response = await fetch(`${second.config.baseUrl}/partner_api/stores`, {
        headers: { 'X-API-KEY-ID': second.config.demo.apiKeyId, 'X-API-KEY': second.config.demo.apiKey },
      });
      const stores = (await response.json()) as { id: string }[];
      expect(stores.map((s) => s.id).sort()).toEqual([first.config.demo.storeId, storeId].sort());
    } finally {
      expect(await second.stop()).toBe(0);
    }
    stoppedDataDir = dataDir;
  });

  // Two starts of the host and a 10 s retry: more than the project's 60 s on a loaded machine.
  it('sends a webhook retry that was waiting in its queue when the host stopped, once started again', {
    timeout: 420_000,
  }, async () => {
    const dataDir = newDataDir();
    // The first retry waits 10 s: time enough to stop the host and start it again meanwhile.
    const env = { WEBHOOK_RETRY_BASE_SECONDS: '10', WEBHOOK_TIMEOUT_MS: '1500' };
    const receiver = await startWebhookReceiver((attempt) => (attempt === 1 ? 503 : 200));
    const first = await startLocalHost(dataDir, env);
    let second: Awaited<ReturnType<typeof startLocalHost>> | undefined;
    try {
      const merchant = await newMerchant(dataDir, 'Boutique Restart');
      await admin(dataDir, 'set-webhook', '--business', merchant.businessId, '--url', receiver.url);
      const call = apiClient(first.config.baseUrl);
      const created = await call('POST', '/partner_api/payment_requests', merchant.headers, {
        storeId: merchant.storeId,
        amountCents: 150_000,
        currency: 'XOF',
        reference: 'kept-across-restart',
        paymentDetails: {
          type: 'redirect',
          data: { paymentMethod: 'wave', successUrl: 'myapp://paid', errorUrl: 'myapp://failed' },
        },
      });
      const paid = await call(
        'POST',
        `/sandbox/payment_requests/${created.body.id}/approve`,
        merchant.headers,
        { payerPhone: '+2250700000001' },
      );
      expect(paid.body.status).toBe('success');
      const [refused] = await receiver.waitFor(1, 15_000);
      // The sender records the attempt, then sets the retry's delay; a stop lets the batch under
      // way finish, so the attempt in the log is enough to stop on.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const { body } = await call('GET', '/partner_api/webhook_deliveries', merchant.headers);
        if (body.data?.[0]?.attempts?.length === 1) break;
        if (Date.now() > deadline)
          throw new Error(`the refused attempt is not in the log: ${JSON.stringify(body)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await first.stop()).toBe(0);

      second = await startLocalHost(dataDir, env);
      const [, retried] = await receiver.waitFor(2, 30_000);
      expect(retried?.body.equals(refused?.body as Buffer)).toBe(true);
      expect(retried?.at).toBeGreaterThanOrEqual((refused?.at ?? 0) + 9_000);
      const log = await apiClient(second.config.baseUrl)(
        'GET',
        '/partner_api/webhook_deliveries',
        merchant.headers,
      );
      expect(log.body.data).toHaveLength(1);
      expect(log.body.data[0].status).toBe('delivered');
      expect(log.body.data[0].attempts.map((attempt: { status: number }) => attempt.status)).toEqual([
        503, 200,
      ]);
    } finally {
      await first.stop();
      if (second) expect(await second.stop()).toBe(0);
      await receiver.close();
    }
  });

  it('lets the admin command work on its data while it is stopped', { timeout: 180_000 }, async () => {
    // The first test's data when it ran (a host start the fewer), or a host of its own.
    let dataDir = stoppedDataDir;
    if (!dataDir) {
      dataDir = newDataDir();
      await (await startLocalHost(dataDir)).stop();
    }
    const { businessId } = await admin(dataDir, 'create-business', '--name', 'Created offline');
    expect(businessId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await javaProcessesUsing(dataDir)).toEqual([]);
  });

  it('says what is missing when Java is not installed', async () => {
    const withoutJava = { ...process.env, PATH: dirname(process.execPath), DATA_DIR: newDataDir() };
    const error = await execFileAsync(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
      cwd: projectRoot,
      env: withoutJava,
    }).then(
      () => undefined,
      (failure: { code: number; stderr: string }) => failure,
    );
    expect(error?.code).toBe(1);
    expect(error?.stderr).toContain('DynamoDB Local needs a Java runtime (17 or newer)');
  });
});
