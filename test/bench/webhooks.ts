import { performance } from 'node:perf_hooks';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { requestCountsPath } from '#infra/local/sqs.ts';
import { type Bench, percentile } from '#test/bench/report.ts';
import { apiClient, newMerchant } from '#test/support/api-client.ts';
import { admin, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { startWebhookReceiver } from '#test/support/webhook-receiver.ts';

/** Payments measured one after the other (latency), then all at once (batching). */
const payments = 100;

type Counts = Record<string, Record<string, number>>;

export interface WebhooksBench {
  latencyMs: { p50: number; p95: number; max: number };
  /** SQS requests on the webhook queue per delivered event, by operation, in each mode. */
  requestsPerEvent: { mode: string; operations: Record<string, number>; total: number }[];
}

/**
 * End-to-end latency of a webhook on the local host, from the completion (the request's
 * `updatedAt`, its event's instant, written in the completing transaction) to the receiver having the body; and what a
 * delivered event costs in SQS requests on the webhook queue (sends, the poller's receives,
 * deletes, visibility changes), counted by the local SQS's front (infra/local/sqs.ts).
 */
async function measureWebhooks(): Promise<WebhooksBench> {
  const dataDir = newDataDir();
  const host = await startLocalHost(dataDir);
  const receiver = await startWebhookReceiver();
  const dynamodb = new DynamoDBClient({
    endpoint: host.config.endpoints.dynamodb,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const call = apiClient(host.config.baseUrl);
    const merchant = await newMerchant(dataDir, 'Bench');
    await admin(dataDir, 'set-webhook', '--business', merchant.businessId, '--url', receiver.url);
    const counts = async () =>
      ((await (await fetch(`${host.config.endpoints.sqs}${requestCountsPath}`)).json()) as Counts).webhooks ??
      {};
    let reference = 0;
    const pay = async (): Promise<{ requestId: string; transactionId: string }> => {
      const created = await call(
        'POST',
        '/partner_api/payment_requests',
        merchant.headers,
        redirectRequestBody(merchant.storeId, { reference: `bench-${reference++}` }),
      );
      const approved = await call(
        'POST',
        `/sandbox/payment_requests/${created.body.id}/approve`,
        merchant.headers,
        {
          payerPhone: '+2250700000001',
        },
      );
      return { requestId: created.body.id as string, transactionId: approved.body.transaction.id as string };
    };
    // The completion's instant, its event's: the request's `updatedAt`, which the completion sets last.
    const completedAt = async (paymentRequestId: string) => {
      const { Item } = await dynamodb.send(
        new GetItemCommand({
          TableName: host.config.tableName,
          Key: { pk: { S: `PAYREQ#${paymentRequestId}` }, sk: { S: 'PAYREQ' } },
          ConsistentRead: true,
        }),
      );
      return Date.parse(Item?.updatedAt?.S ?? '');
    };
    const perEvent = (before: Record<string, number>, after: Record<string, number>, mode: string) => {
      const operations = Object.fromEntries(
        Object.keys(after)
          .map(
            (operation) =>
              [operation, ((after[operation] ?? 0) - (before[operation] ?? 0)) / payments] as const,
          )
          .filter(([, perEvent]) => perEvent > 0),
      );
      return { mode, operations, total: Object.values(operations).reduce((sum, value) => sum + value, 0) };
    };

    // A warm-up, so the first figures do not include loading the handlers.
    await pay();
    await receiver.waitFor(1, 30_000);

    const latencies: number[] = [];
    let before = await counts();
    for (let i = 0; i < payments; i++) {
      // The webhook may well arrive before the approval has answered.
      const expected = receiver.received.length + 1;
      const { requestId, transactionId } = await pay();
      const [webhook] = (await receiver.waitFor(expected, 30_000)).slice(-1);
      if (JSON.parse(webhook?.body.toString('utf8') ?? '{}').id !== transactionId)
        throw new Error('webhooks arrived out of order');
      latencies.push((webhook?.at ?? Number.NaN) - (await completedAt(requestId)));
    }
    // The last delete follows the receipt.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sequential = perEvent(before, await counts(), `${payments} payments one after the other`);

    before = await counts();
    const start = performance.now();
    const expected = receiver.received.length + payments;
    await Promise.all(Array.from({ length: payments }, pay));
    await receiver.waitFor(expected, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const burst = perEvent(
      before,
      await counts(),
      `${payments} payments at once (${Math.round(performance.now() - start)} ms)`,
    );

    latencies.sort((a, b) => a - b);
    return {
      latencyMs: {
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        max: latencies.at(-1) ?? 0,
      },
      requestsPerEvent: [sequential, burst],
    };
  } finally {
    dynamodb.destroy();
    await receiver.close();
    await host.stop();
  }
}

export const webhooks: Bench = async () => {
  const result = await measureWebhooks();
  const operations = [
    ...new Set(result.requestsPerEvent.flatMap((mode) => Object.keys(mode.operations))),
  ].sort();
  return {
    name: 'webhooks',
    title: `Webhooks on the local host: completion to receipt p50 ${Math.round(result.latencyMs.p50)} ms, p95 ${Math.round(result.latencyMs.p95)} ms, max ${Math.round(result.latencyMs.max)} ms over ${payments} payments; SQS requests on the webhook queue per delivered event`,
    columns: ['mode', ...operations, 'total'],
    rows: result.requestsPerEvent.map((mode) => [
      mode.mode,
      ...operations.map((operation) => mode.operations[operation] ?? 0),
      mode.total,
    ]),
    data: result,
  };
};
