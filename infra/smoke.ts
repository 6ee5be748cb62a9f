/**
 * `npm run smoke -- --stage NAME [--api-url URL] [--webhook-url URL]`: proves a stage works end to
 * end after a deploy. A throwaway business (the admin command) takes a sandbox payment through the
 * stage's API: created, approved through the sandbox helper, polled to success, its webhook
 * delivered to the receiver given (or skipped), the books audited; then the business is retired.
 * `--stage local` runs it against the local host (DATA_DIR), as the tests do.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { parseArgs, promisify } from 'node:util';
import { localDataDir, readLocalConfig } from './local/local-config.ts';
import { projectRoot } from './paths.ts';
import { localStageName, readRegistryFile, StageRegistryError, stageEntry } from './stage-registry.ts';

const usage = `Usage: npm run smoke -- --stage NAME [--api-url URL] [--webhook-url URL] [--timeout SECONDS]

--stage NAME       a sandbox stage of the registry (context.stages in cdk.json), or local
--api-url URL      the stage's API (the stack's ApiUrl output); default: its publicBaseUrl
--webhook-url URL  a receiver that answers 2xx: the payment's webhook must be delivered there;
                   without it the webhook step is skipped
--timeout SECONDS  how long each wait may take (default 60)`;

class UsageError extends Error {}

const execFileAsync = promisify(execFile);

interface Target {
  stage: string;
  baseUrl: string;
  /** The admin command's environment (DATA_DIR for the local host). */
  env: NodeJS.ProcessEnv;
}

function target(values: { stage?: string; 'api-url'?: string }): Target {
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
    };
  }
  let entry: ReturnType<typeof stageEntry>;
  try {
    entry = stageEntry(readRegistryFile(), stage);
  } catch (error) {
    if (error instanceof StageRegistryError) throw new UsageError(error.message);
    throw error;
  }
  // Production has no sandbox helper and no test money: a smoke payment there would be real.
  if (entry.kind === 'production')
    throw new UsageError(`${stage} is a production stage: smoke runs on sandbox stages`);
  const baseUrl = values['api-url'] ?? entry.environment.PUBLIC_BASE_URL;
  if (!baseUrl)
    throw new UsageError(
      `--api-url is required: ${stage} has no publicBaseUrl (use the stack's ApiUrl output)`,
    );
  return { stage, baseUrl, env: process.env };
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
}

/** Runs the smoke test; each step is reported through `log`. Throws on the first failed step. */
async function smoke(options: SmokeOptions, log: (line: string) => void): Promise<void> {
  const to = target(options);
  const timeoutMs = Number(options.timeout ?? 60) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new UsageError('--timeout must be a positive number');
  log(`smoke on ${to.stage} at ${to.baseUrl}`);

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
