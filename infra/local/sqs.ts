/**
 * The local host's SQS: `fauxqs`, an SQS emulator that speaks the AWS JSON protocol of the current
 * SDK (visibility timeouts, ChangeMessageVisibility, delays, long polling, redrive to a dead-letter
 * queue, batches, attribute digests). Given a folder it keeps every queue and message there in
 * SQLite, written through on every change, so a webhook retry or a delayed sandbox callback waiting
 * in a queue outlives a restart.
 *
 * What fauxqs lacks, and is kept here: a count of the requests each queue gets, by operation
 * (`GET /__request-counts`), for the benchmarks, since SQS bills per request; and listening on the
 * loopback only (fauxqs listens on every interface). Both come from a small front that clients
 * talk to and that passes every request on unchanged.
 */
import { mkdirSync } from 'node:fs';
import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export const localAccountId = '000000000000';

/**
 * The URL of a queue for clients of `endpoint`. fauxqs finds a queue by the name in the path
 * whatever the host, and the one it stored may carry the port of an earlier run.
 */
export const localQueueUrl = (endpoint: string, queueName: string) =>
  `${endpoint}/${localAccountId}/${queueName}`;

/** `GET` on the endpoint at this path answers how many requests each queue got, by operation. */
export const requestCountsPath = '/__request-counts';

export interface RunningSqs {
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts the local SQS, in memory, or kept under `dataDir` across restarts. */
export async function startLocalSqs(options: { dataDir?: string } = {}): Promise<RunningSqs> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // Imported only here: fauxqs loads node:sqlite, whose experimental warning would otherwise print
  // in every command that only needs a queue's URL (the admin command's JSON on stderr, say).
  const { startFauxqs } = await import('fauxqs');
  const fauxqs = await startFauxqs({ port: 0, logger: false, dataDir: options.dataDir });
  /** Queue name → operation → requests, failed ones included: SQS bills those too. */
  const counts: Record<string, Record<string, number>> = {};
  const count = (body: Buffer, target: string | undefined) => {
    const operation = (target ?? '').replace(/^AmazonSQS\./, '');
    let input: { QueueUrl?: unknown; QueueName?: unknown } = {};
    try {
      input = JSON.parse(body.toString('utf8')) as typeof input;
    } catch {
      // Not JSON: counted against no queue, and fauxqs answers the error.
    }
    const queue =
      typeof input.QueueUrl === 'string'
        ? (input.QueueUrl.split('/').pop() ?? '')
        : typeof input.QueueName === 'string'
          ? input.QueueName
          : '';
    const byOperation = counts[queue] ?? {};
    byOperation[operation] = (byOperation[operation] ?? 0) + 1;
    counts[queue] = byOperation;
  };

  const front = createServer(async (incoming, response) => {
    if (incoming.method === 'GET' && incoming.url === requestCountsPath) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
      return;
    }
    const body = await readBody(incoming);
    const target = incoming.headers['x-amz-target'];
    if (typeof target === 'string') count(body, target);
    const passed = forward(
      {
        host: '127.0.0.1',
        port: fauxqs.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    // A client that gives up (a poller stopping mid long poll) closes fauxqs's request too.
    response.once('close', () => {
      if (!response.writableFinished) passed.destroy();
    });
    passed.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    passed.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(0, '127.0.0.1', resolve);
  });
  return {
    endpoint: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    stop: async () => {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await fauxqs.stop();
    },
  };
}

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
