import { performance } from 'node:perf_hooks';
import { type Bench, percentile } from '#test/bench/report.ts';
import { apiClient, newMerchant } from '#test/support/api-client.ts';
import { admin, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { startWebhookReceiver } from '#test/support/webhook-receiver.ts';

/** Clients at once, each looping over a mix of what integrations and payers do. */
const clients = Number(process.env.LOAD_CLIENTS ?? 50);
const seconds = Number(process.env.LOAD_SECONDS ?? 60);

export interface LoadBench {
  clients: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number };
  byAction: Record<string, number>;
  serverErrors: number;
  /** What the host logged at ERROR level during the run (distinct messages, a few), to explain any 5xx. */
  hostErrors: string[];
  created: number;
  accountedFor: number;
  completed: number;
  webhooksDelivered: number;
  webhooksExpected: number;
  auditOk: boolean;
}

/**
 * A bounded load run on the local host: `clients` loops for `seconds`, each choosing among creating
 * a payment request, polling one, approving one in the sandbox (which completes it through the
 * provider callback, with its webhook), and paying a payment link. Then: every object created is
 * read back, every completion's webhook reached the receiver (within a minute of the end), and the
 * books pass the audit. Throughput and latency percentiles over every request of the run.
 */
async function measureLoad(): Promise<LoadBench> {
  const dataDir = newDataDir();
  const host = await startLocalHost(dataDir);
  const receiver = await startWebhookReceiver();
  try {
    const call = apiClient(host.config.baseUrl);
    const merchant = await newMerchant(dataDir, 'Load');
    await admin(dataDir, 'set-webhook', '--business', merchant.businessId, '--url', receiver.url);
    const link = await call('POST', '/partner_api/payment_links', merchant.headers, {
      storeId: merchant.storeId,
      title: 'Abonnement mensuel',
      amountCents: 50_000,
      currency: 'XOF',
      allowMultiplePayments: true,
    });
    if (link.status !== 200) throw new Error(`payment link not created: ${JSON.stringify(link.body)}`);

    const latencies: number[] = [];
    const byAction: Record<string, number> = {};
    const created: string[] = [];
    const pending: string[] = [];
    let serverErrors = 0;
    let counter = 0;
    const timed = async (action: string, method: string, path: string, body?: unknown) => {
      const start = performance.now();
      const answer = await call(method, path, merchant.headers, body);
      latencies.push(performance.now() - start);
      byAction[action] = (byAction[action] ?? 0) + 1;
      if (answer.status >= 500) serverErrors++;
      return answer;
    };
    const actions = [
      async () => {
        const { status, body } = await timed(
          'create',
          'POST',
          '/partner_api/payment_requests',
          redirectRequestBody(merchant.storeId, {
            amountCents: 1_000 + (counter % 97) * 100,
            reference: `load-${counter++}`,
          }),
        );
        if (status === 200) {
          created.push(body.id);
          pending.push(body.id);
        }
      },
      async () => {
        const id = created[Math.floor(Math.random() * created.length)];
        if (id) await timed('poll', 'GET', `/partner_api/payment_requests/${id}`);
      },
      async () => {
        const id = pending.pop();
        if (!id) return;
        // One in five payers declines: an error is a completion, with its webhook, too.
        const payerPhone = Math.random() < 0.2 ? '+2250700000002' : '+2250700000001';
        await timed('approve', 'POST', `/sandbox/payment_requests/${id}/approve`, { payerPhone });
      },
      async () => {
        const { status, body } = await timed(
          'link payment',
          'POST',
          `/sandbox/payment_links/${link.body.id}/pay`,
          {
            paymentMethod: 'orange',
            payerPhone: '+2250700000001',
          },
        );
        if (status === 200) created.push(body.id);
      },
    ];
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < deadline) {
          const action = actions[Math.floor(Math.random() * actions.length)] as () => Promise<void>;
          await action();
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;

    // Every object made is there, and every completion's webhook arrives.
    let accountedFor = 0;
    let completed = 0;
    for (const id of created) {
      const { status, body } = await call('GET', `/partner_api/payment_requests/${id}`, merchant.headers);
      if (status === 200) accountedFor++;
      if (body?.status === 'success' || body?.status === 'error') completed++;
    }
    const delivered = () =>
      new Set(receiver.received.map((r) => JSON.parse(r.body.toString('utf8')).id)).size;
    const waitUntil = performance.now() + 60_000;
    while (delivered() < completed && performance.now() < waitUntil)
      await new Promise((resolve) => setTimeout(resolve, 500));
    const audit = await admin<{ ok: boolean }>(dataDir, 'audit');
    const hostErrors = [
      ...new Set(
        host
          .output()
          .split('\n')
          .filter((line) => line.includes('"level":"ERROR"'))
          .map((line) => line.slice(0, 300)),
      ),
    ].slice(0, 5);
    latencies.sort((a, b) => a - b);
    return {
      clients,
      seconds,
      requests: latencies.length,
      requestsPerSecond: Math.round((latencies.length / elapsed) * 10) / 10,
      latencyMs: {
        p50: Math.round(percentile(latencies, 50)),
        p95: Math.round(percentile(latencies, 95)),
        p99: Math.round(percentile(latencies, 99)),
      },
      byAction,
      serverErrors,
      hostErrors,
      created: created.length,
      accountedFor,
      completed,
      webhooksDelivered: delivered(),
      webhooksExpected: completed,
      auditOk: audit.ok,
    };
  } finally {
    await receiver.close();
    await host.stop();
  }
}

export const load: Bench = async () => {
  const result = await measureLoad();
  return {
    name: 'load',
    title: `Load on the local host: ${result.clients} clients for ${result.seconds} s`,
    columns: ['measure', 'value'],
    rows: [
      ['requests', result.requests],
      ['requests per second', result.requestsPerSecond],
      ['p50 (ms)', result.latencyMs.p50],
      ['p95 (ms)', result.latencyMs.p95],
      ['p99 (ms)', result.latencyMs.p99],
      ...Object.entries(result.byAction).map(([action, n]) => [`  ${action}`, n] as [string, number]),
      ['5xx answers', result.serverErrors],
      ['objects created', result.created],
      ['objects read back', result.accountedFor],
      ['completions', result.completed],
      ['webhooks delivered (distinct)', result.webhooksDelivered],
      ['audit ok', String(result.auditOk)],
    ],
    data: result,
  };
};
