import type { IncomingMessage, ServerResponse } from 'node:http';
import { getSubscription, saveSubscription, signingSecretOf } from '#shared/data/webhook-subscription.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { negotiateLanguage } from '#shared/pages/language.ts';
import { verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';
import { type ReceivedDelivery, receivedAsJson, renderReceiverPage } from './demo-receiver-page.ts';

/**
 * A webhook receiver built into the local host, not an endpoint (it is no part of the
 * service, it stands in for a merchant's server). The demo business is subscribed to it, so a
 * newcomer sees every event the service sends: it checks each signature with the subscription's
 * secret, as a merchant's receiver must, and prints one line per verified event. A GET of the same
 * address shows what it received since the host started: a page to a browser, JSON to anything else
 * (curl).
 */
export const demoReceiverPath = '/__local/webhooks';

const demoSubscriptionName = 'Local demo receiver';

export function isDemoReceiverUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.pathname === demoReceiverPath && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Subscribes the demo business to the receiver on its first start; on later starts, points the
 * subscription at this run's address (the port may have changed), keeping its secret, unless the
 * developer has pointed it elsewhere or deleted it. Answers where the demo's webhooks go now.
 */
export async function subscribeDemoReceiver(
  businessId: string,
  baseUrl: string,
  seeded: boolean,
): Promise<string | undefined> {
  const url = `${baseUrl}${demoReceiverPath}`;
  const current = await getSubscription(businessId);
  if (seeded && !current) {
    await saveSubscription({ businessId, url, name: demoSubscriptionName, events: [] }, { replace: true });
    return url;
  }
  if (current && current.url !== url && isDemoReceiverUrl(current.url)) {
    await saveSubscription(
      {
        businessId,
        url,
        name: current.name,
        events: current.events,
        secret: await signingSecretOf(current),
      },
      { replace: true },
    );
    return url;
  }
  return current?.url;
}

/** How many deliveries the receiver's page keeps, newest first. */
const keptDeliveries = 100;
/** A body longer than this is kept cut (webhook bodies are well under it). */
const keptBodyChars = 16_384;

export function demoReceiver(businessId: string) {
  const received: ReceivedDelivery[] = [];
  const keep = (delivery: ReceivedDelivery) => {
    received.unshift(delivery);
    received.length = Math.min(received.length, keptDeliveries);
  };

  const receive = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const subscription = await getSubscription(businessId);
    const signature = request.headers['svc-signature'];
    const event = request.headers['svc-event'];
    const verified =
      subscription !== undefined &&
      verifyWebhookSignature(
        body,
        typeof signature === 'string' ? signature : undefined,
        await signingSecretOf(subscription),
      );
    const text = body.toString('utf8');
    const version = request.headers['svc-webhook-version'];
    keep({
      receivedAt: new Date().toISOString(),
      event: typeof event === 'string' ? event : null,
      signature: typeof signature === 'string' ? signature : null,
      webhookVersion: typeof version === 'string' ? version : null,
      verified,
      summary: verified ? summary(String(event), text) : 'refused: bad or missing signature',
      body: text.slice(0, keptBodyChars),
    });
    if (!verified) {
      console.log(`[demo receiver] refused a ${request.method} ${event ?? ''}: bad or missing signature`);
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Invalid signature"}');
      return;
    }
    console.log(`[demo receiver] ${summary(String(event), text)}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  };

  /** What it received: a page for a browser (it asks for HTML), JSON for anything else. */
  const show = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (/\btext\/html\b/.test(request.headers.accept ?? '')) {
      const language = negotiateLanguage(
        request.headers['accept-language'],
        url.searchParams.get('lang') ?? undefined,
      );
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      });
      response.end(renderReceiverPage(received, language));
      return;
    }
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(`${JSON.stringify(receivedAsJson(received), null, 2)}\n`);
  };

  // A failure here (the table unreachable while stopping, say) fails the delivery, not the host.
  return (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method === 'GET' || request.method === 'HEAD')
      return Promise.resolve(show(request, response));
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'GET, HEAD, POST', 'content-type': 'application/json' });
      response.end('{"message":"The demo receiver takes POST (deliveries) and GET (what it received)"}');
      return Promise.resolve();
    }
    return receive(request, response).catch((error: unknown) => {
      console.error('[demo receiver] failed:', error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  };
}

// biome-ignore lint/suspicious/noExplicitAny: whatever the event's body holds is printed if present.
type Body = any;

function summary(event: string, text: string): string {
  let body: Body;
  try {
    body = JSON.parse(text);
  } catch {
    return `${event} (a body that is not JSON)`;
  }
  if (event === 'TRANSACTION_COMPLETED' && body?.amount) {
    const parts = [
      `${event} ${body.status}`,
      formatAmount(body.amount.amount, body.amount.currency),
      `fee ${formatAmount(body.fees?.amount ?? 0, body.fees?.currency)}`,
      `${body.paymentMethod} ${body.counterpartIdentifier}`,
      body.storeName,
      body.transactionDetails?.reference,
      `transaction ${body.id}`,
    ];
    return parts.filter(Boolean).join(' · ');
  }
  return [event, body?.status, body?.id].filter(Boolean).join(' · ');
}
