/**
 * `npm run smoke -- --stage NAME [--api-url URL] [--webhook-url URL]`: proves a stage works end to
 * end after a deploy. A throwaway business (the admin command) takes a sandbox payment through the
 * stage's API: created, approved through the sandbox helper, polled to success, its webhook
 * delivered to the receiver given (or skipped), the books audited; then the business is retired.
 * `--stage local` runs it against the local host (DATA_DIR), as the tests do.
 *
 * `--read-only` (production always runs so) writes nothing and moves no money: with the stage's
 * smoke key (SMOKE_KEY, provisioned once per stage: docs/operations/rollout.md) it reads through
 * the API as an integrator would, and checks that an unsigned provider callback is refused.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { parseArgs, promisify } from 'node:util';
import { localDataDir, readLocalConfig } from './local/local-config.ts';
import { projectRoot } from './paths.ts';
import { localStageName, readRegistryFile, StageRegistryError, stageEntry } from './stage-registry.ts';

const usage = `Usage: npm run smoke -- --stage NAME [--api-url URL] [--webhook-url URL] [--timeout SECONDS]
       SMOKE_KEY='{"keyId":"...","key":"..."}' npm run smoke -- --stage NAME --read-only [--api-url URL]

--stage NAME       a stage of the registry (context.stages in cdk.json), or local
--api-url URL      the stage's API (the stack's ApiUrl output); default: its publicBaseUrl
--webhook-url URL  a receiver that answers 2xx: the payment's webhook must be delivered there;
                   without it the webhook step is skipped
--timeout SECONDS  how long each wait may take (default 60)
--read-only        read with the stage's smoke key (SMOKE_KEY) and write nothing: production's
                   smoke test, chosen by itself on a production stage`;

class UsageError extends Error {}

const execFileAsync = promisify(execFile);

interface Target {
  stage: string;
  baseUrl: string;
  /** The admin command's environment (DATA_DIR for the local host). */
  env: NodeJS.ProcessEnv;
}

function target(values: { stage?: string; 'api-url'?: string }): Target & { production: boolean } {
  const stage = values.stage;
  if (!stage) throw new UsageError('--stage is required');
  if (stage === localStageName) {
    const dataDir = localDataDir();
    const config = readLocalConfig(dataDir);
    if (!config)
      throw new UsageError(`the local host is not running (no local.json in ${dataDir}): npm start`);
    return {
      stage,
      baseUrl: values['api-url'] ?? config.baseUrl,
      env: { ...process.env, DATA_DIR: dataDir },
      production: false,
    };
  }
  let entry: ReturnType<typeof stageEntry>;
  try {
    entry = stageEntry(readRegistryFile(), stage);
  } catch (error) {
    if (error instanceof StageRegistryError) throw new UsageError(error.message);
    throw error;
  }
  const baseUrl = values['api-url'] ?? entry.environment.PUBLIC_BASE_URL;
  if (!baseUrl)
    throw new UsageError(
      `--api-url is required: ${stage} has no publicBaseUrl (use the stack's ApiUrl output)`,
    );
  return { stage, baseUrl, env: process.env, production: entry.kind === 'production' };
}

async function admin<T = Record<string, unknown>>(to: Target, ...args: string[]): Promise<T> {
  try {
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'infra/admin.ts', ...args, '--stage', to.stage, '--json'],
      { cwd: projectRoot, env: to.env },
    );
    return JSON.parse(stdout) as T;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`admin ${args[0]} failed${stderr ? `: ${stderr}` : ''}`);
  }
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function api(baseUrl: string, headers: Record<string, string>) {
  const root = baseUrl.replace(/\/+$/, '');
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${root}${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
}

function expectStatus(answer: Answer, status: number, what: string): Record<string, unknown> {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

async function eventually<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface SmokeOptions {
  stage?: string;
  'api-url'?: string;
  'webhook-url'?: string;
  timeout?: string;
  'read-only'?: boolean;
}

/** The stage's smoke key, from SMOKE_KEY: `{"keyId": ..., "key": ...}`, as its secret holds it. */
function smokeKey(): { keyId: string; key: string } {
  const text = process.env.SMOKE_KEY;
  if (!text) {
    throw new UsageError(
      "--read-only needs the stage's smoke key in SMOKE_KEY (its secret <stack>/smoke-key: docs/operations/rollout.md)",
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError('SMOKE_KEY must be JSON: {"keyId": "...", "key": "..."}');
  }
  const { keyId, key } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof keyId !== 'string' || typeof key !== 'string') {
    throw new UsageError('SMOKE_KEY must be JSON: {"keyId": "...", "key": "..."}');
  }
  return { keyId, key };
}

/**
 * Production's smoke test: only reads, with the smoke business's key, and one callback the
 * service must refuse. A failure here after a deploy is a reason to roll back.
 */
async function readOnlySmoke(to: Target, log: (line: string) => void): Promise<void> {
  const { keyId, key } = smokeKey();
  const call = api(to.baseUrl, { 'X-API-KEY-ID': keyId, 'X-API-KEY': key });
  const stores = expectStatus(await call('GET', '/partner_api/stores'), 200, 'list the stores') as unknown;
  if (!Array.isArray(stores)) throw new Error(`list the stores: not a list: ${JSON.stringify(stores)}`);
  log(`stores: ${stores.length}`);
  const storeId = (stores[0] as { id?: string } | undefined)?.id;
  if (storeId) {
    const balance = expectStatus(
      await call('GET', `/partner_api/stores/${storeId}/balance`),
      200,
      "read a store's balance",
    );
    if (typeof balance.amount !== 'number')
      throw new Error(`the balance has no amount: ${JSON.stringify(balance)}`);
    log('balance read');
  }
  expectStatus(await call('GET', '/partner_api/transactions'), 200, 'list the transactions');
  log('transactions listed');
  // An id no business has: the key is checked, the table read, and the answer is the spec's 404.
  const missing = expectStatus(
    await call('GET', `/partner_api/payment_requests/${randomUUID()}`),
    404,
    'read a payment request that does not exist',
  );
  if (typeof missing.id !== 'string')
    throw new Error(`the 404 is not the spec's error body: ${JSON.stringify(missing)}`);
  log('an unknown payment request is not found');
  const refused = await api(to.baseUrl, {})('POST', '/provider_callbacks/wave', {
    id: `smoke-${randomUUID()}`,
    type: 'checkout.session.completed',
  });
  expectStatus(refused, 401, 'an unsigned provider callback');
  log('an unsigned provider callback is refused');
}

/** Runs the smoke test; each step is reported through `log`. Throws on the first failed step. */
async function smoke(options: SmokeOptions, log: (line: string) => void): Promise<void> {
  const to = target(options);
  const timeoutMs = Number(options.timeout ?? 60) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new UsageError('--timeout must be a positive number');
  // Production has no sandbox helper and no test money: a smoke payment there would be real.
  const readOnly = options['read-only'] === true || to.production;
  if (to.production && options['webhook-url']) {
    throw new UsageError(`${to.stage} is a production stage: its smoke test is read-only, without a webhook`);
  }
  log(`smoke on ${to.stage} at ${to.baseUrl}${readOnly ? ' (read-only)' : ''}`);
  if (readOnly) {
    await readOnlySmoke(to, log);
    return;
  }

  const tag = randomUUID().slice(0, 8);
  const { businessId } = await admin<{ businessId: string }>(to, 'create-business', '--name', `Smoke ${tag}`);
  log(`business ${businessId} created`);
  try {
    const { storeId } = await admin<{ storeId: string }>(
      to,
      'create-store',
      '--business',
      businessId,
      '--name',
      'Smoke',
    );
    const { keyId, key } = await admin<{ keyId: string; key: string }>(
      to,
      'create-key',
      '--business',
      businessId,
    );
    if (options['webhook-url']) {
      await admin(
        to,
        'set-webhook',
        '--business',
        businessId,
        '--url',
        options['webhook-url'],
        '--events',
        'TRANSACTION_COMPLETED',
      );
      log(`webhook subscription to ${options['webhook-url']}`);
    }
    const call = api(to.baseUrl, { 'X-API-KEY-ID': keyId, 'X-API-KEY': key });

    const reference = `smoke-${tag}`;
    const created = expectStatus(
      await call('POST', '/partner_api/payment_requests', {
        storeId,
        amountCents: 10_000,
        currency: 'XOF',
        reference,
        paymentDetails: {
          type: 'redirect',
          data: {
            paymentMethod: 'wave',
            successUrl: 'https://smoke.invalid/paid',
            errorUrl: 'https://smoke.invalid/failed',
          },
        },
      }),
      200,
      'create the payment request',
    );
    const id = String(created.id);
    log(`payment request ${id} created (${created.status})`);

    expectStatus(
      await call('POST', `/sandbox/payment_requests/${id}/approve`, { payerPhone: '+2250700000001' }),
      200,
      'approve it through the sandbox helper',
    );
    const paid = await eventually('the payment succeeds', timeoutMs, async () => {
      const got = expectStatus(await call('GET', `/partner_api/payment_requests/${id}`), 200, 'read it back');
      if (got.status === 'error') throw new Error(`the payment failed: ${JSON.stringify(got)}`);
      return got.status === 'success' ? got : undefined;
    });
    const transaction = paid.transaction as { amount?: { amount?: number } } | undefined;
    if (transaction?.amount?.amount !== 10_000) {
      throw new Error(`the paid request has no transaction of 10000: ${JSON.stringify(paid)}`);
    }
    log('payment succeeded with its transaction');

    if (options['webhook-url']) {
      const delivery = await eventually('the webhook is delivered', timeoutMs, async () => {
        const log = expectStatus(
          await call('GET', '/partner_api/webhook_deliveries?status=delivered'),
          200,
          'list webhook deliveries',
        );
        return (log.data as Array<Record<string, unknown>>).find(
          (found) => found.eventName === 'TRANSACTION_COMPLETED',
        );
      });
      log(`webhook ${String(delivery.eventName)} delivered to ${String(delivery.url)}`);
    } else {
      log('webhook step skipped (no --webhook-url)');
    }

    const audit = await admin<{ ok: boolean }>(to, 'audit').catch((error: Error) => {
      throw new Error(`the audit found a break: ${error.message}`);
    });
    if (!audit.ok) throw new Error(`the audit found a break: ${JSON.stringify(audit)}`);
    log('audit: the books balance');
  } finally {
    await admin(to, 'retire-business', '--business', businessId);
    log(`business ${businessId} retired`);
  }
}

const { values } = parseArgs({
  options: {
    stage: { type: 'string' },
    'api-url': { type: 'string' },
    'webhook-url': { type: 'string' },
    timeout: { type: 'string' },
    'read-only': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
try {
  await smoke(values, (line) => console.log(line));
  console.log('smoke: passed');
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof UsageError ? `${message}\n\n${usage}` : `smoke: FAILED: ${message}`);
  process.exit(error instanceof UsageError ? 2 : 1);
}
