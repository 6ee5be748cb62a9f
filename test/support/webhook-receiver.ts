import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookProblem } from '#test/support/answer-validation.ts';

export interface ReceivedWebhook {
  /** When the request's body had arrived (ms since the epoch). */
  at: number;
  headers: IncomingHttpHeaders;
  /** The raw body bytes, as signed. */
  body: Buffer;
  /** How the delivery differs from the published reference, if it does. */
  problem?: string | undefined;
}

/** What the receiver does with its n-th request (1-based): answer this status, or never answer. */
export type ReceiverBehaviour = (attempt: number) => number | 'hang';

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves with the requests once there are `count` of them; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A merchant's webhook endpoint: a real HTTP server on 127.0.0.1 that records what it gets. */
export async function startWebhookReceiver(
  behaviour: ReceiverBehaviour = () => 200,
  /** False for a test that plants a stand-in event of its own, which the reference does not describe. */
  checkAgainstReference = true,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let problem: string | undefined;
    try {
      problem = webhookProblem(request.headers, body.toString('utf8'));
    } catch (error) {
      problem = `not JSON: ${String(error)}`;
    }
    received.push({ at: Date.now(), headers: request.headers, body, problem });
    const answer = behaviour(received.length);
    if (answer === 'hang') return;
    response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'try again later');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    waitFor: async (count, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      // Every delivery must be what the reference publishes of its event.
      const checkPublished = () => {
        if (!checkAgainstReference) return;
        const problem = received.find((webhook) => webhook.problem)?.problem;
        if (problem) throw new Error(problem);
      };
      while (received.length < count) {
        checkPublished();
        if (Date.now() > deadline)
          throw new Error(`${received.length} webhook(s) received in ${timeoutMs} ms, ${count} expected`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      checkPublished();
      return received.slice(0, count);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
