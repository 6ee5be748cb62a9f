import type { IncomingMessage, ServerResponse } from 'node:http';
import { getSubscription, saveSubscription, signingSecretOf } from '#shared/data/webhook-subscription.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';

/**
 * A webhook receiver built into the local host, outside the route table (it is no part of the
 * service, it stands in for a merchant's server). The demo business is subscribed to it, so a
 * newcomer sees every event the service sends: it checks each signature with the subscription's
 * secret, as a merchant's receiver must, and prints one line per verified event.
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

export function demoReceiver(businessId: string) {
  const receive = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const subscription = await getSubscription(businessId);
    const signature = request.headers['svc-signature'];
    const event = request.headers['svc-event'];
    if (
      request.method !== 'POST' ||
      !subscription ||
      !verifyWebhookSignature(
        body,
        typeof signature === 'string' ? signature : undefined,
        await signingSecretOf(subscription),
      )
    ) {
      console.log(`[demo receiver] refused a ${request.method} ${event ?? ''}: bad or missing signature`);
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Invalid signature"}');
      return;
    }
    console.log(`[demo receiver] ${summary(String(event), body.toString('utf8'))}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  };
  // A failure here (the table unreachable while stopping, say) fails the delivery, not the host.
  return (request: IncomingMessage, response: ServerResponse): Promise<void> =>
    receive(request, response).catch((error: unknown) => {
      console.error('[demo receiver] failed:', error);
      if (!response.headersSent) response.writeHead(500).end();
    });
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
