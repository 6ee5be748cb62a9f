import { randomUUID } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { httpCall } from '#shared/aws/tracing.ts';
import { queues } from '#shared/catalogue/queues.ts';
import {
  attemptNumberOf,
  type Claim,
  claimAttempt,
  createDelivery,
  type DeliveryAttempt,
  failDelivery,
  getDelivery,
  recordAttempt,
  responseExcerptBytes,
  type WebhookDelivery,
} from '#shared/data/webhook-delivery.ts';
import {
  deliveryBodyOf,
  getSubscription,
  signingSecretOf,
  type WebhookSubscription,
} from '#shared/data/webhook-subscription.ts';
import { retryBaseSeconds, retryDelaySeconds } from '#shared/domain/webhook-retry.ts';
import {
  refusedAddress,
  refusedWebhookUrl,
  type WebhookUrlPolicy,
  webhookUrlPolicy,
} from '#shared/domain/webhook-url.ts';
import type { DeliveryMessage } from '#shared/events/announce.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';
import { logger } from '#shared/logger.ts';
import { count } from '#shared/metrics.ts';
import { signWebhookBody } from '#shared/webhooks/verify-signature.ts';

export const webhookVersion = '1.0.0';
/** The interface's acknowledgement time: a receiver that has not answered by then has failed. */
const defaultTimeoutMs = 30_000;

const timeoutMs = () => {
  const value = Number(process.env.WEBHOOK_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : defaultTimeoutMs;
};

/**
 * A delivery's attempts, counted in its record: the fourth failure ends it. The queue's redrive
 * (`maxReceiveCount`, above this) is a safety net only: receives that never reached the sender
 * (throttled or timed-out invocations) or that came before an attempt was due use up receives, not
 * attempts.
 */
export const maxAttempts = 4;

export type SendResult =
  /** Nothing more to do with the message: delivered, over one way or another, or carried by another sender. */
  | { done: true }
  /** The message is to come back after this many seconds, for the `attempt`-th attempt. */
  | { done: false; retryInSeconds: number; reason: string; attempt: number };

/**
 * How long a sender holds the attempt it claimed: as long as a receiver may take, and a margin for
 * the writes around it. Shorter than the queue's visibility timeout, so a sender that stopped
 * mid-attempt has let go by the time its message comes back.
 */
export const claimSeconds = () => Math.ceil(timeoutMs() / 1000) + 30;

/**
 * One attempt at a delivery, the one its record counts (not the message's receives), made by one
 * sender at a time: the attempt is claimed before the POST, and a message that finds it claimed
 * comes back once the claim has lapsed (its holder may have stopped before recording). A first delivery is made here, by the claim of its first
 * attempt. Every attempt is recorded. A delivery that is no longer pending (a copy of a message, a
 * re-send already done) is left alone; one whose subscription was deleted or replaced ends failed
 * without being sent. A message that comes back before its attempt is due waits for it without
 * using one up. `receiveCount` is the queue's: on the last receive its redrive allows, the attempt is
 * made whatever the schedule and is the last.
 */
export async function attemptDelivery(message: DeliveryMessage, receiveCount: number): Promise<SendResult> {
  const now = new Date();
  const claim: Claim = {
    until: new Date(now.getTime() + claimSeconds() * 1000).toISOString(),
    token: randomUUID(),
  };
  let delivery = await getDelivery(message.businessId, message.deliveryId, true);
  let claimed = false;
  // The subscription as read when this sender made the delivery: not read twice.
  let subscription: WebhookSubscription | undefined;
  if (!delivery) {
    if (!message.event) {
      logger.warn('webhook message for an unknown delivery', { deliveryId: message.deliveryId });
      return { done: true };
    }
    const made = await makeDelivery(message, message.event, now, claim);
    if (!made) return { done: true };
    delivery = made.delivery;
    // Made by this sender (its put's answer lost on the way, too): its first attempt is held.
    claimed = delivery.claimToken === claim.token;
    if (claimed) subscription = made.subscription;
  }
  if (delivery.status !== 'pending') return { done: true };
  const attempt = attemptNumberOf(delivery);
  const lastReceive = receiveCount >= queues.webhooks.maxReceiveCount;
  if (!claimed) {
    // Another sender holds it (or this message did, and failed before recording): this copy
    // comes back once the hold has lapsed, and finds the attempt recorded or free to take.
    const held = delivery.claimedUntil ? Date.parse(delivery.claimedUntil) - now.getTime() : 0;
    if (held > 0) {
      return {
        done: false,
        retryInSeconds: Math.ceil(held / 1000) + 1,
        reason: `attempt ${attempt} is under way`,
        attempt,
      };
    }
    const wait = secondsUntilDue(delivery.attempts, attempt, now);
    if (wait > 0 && !lastReceive) {
      return { done: false, retryInSeconds: wait, reason: `attempt ${attempt} is not due yet`, attempt };
    }
    if (!(await claimAttempt(delivery, attempt, claim, now.toISOString()))) return { done: true };
  }
  subscription ??= await getSubscription(delivery.businessId);
  if (!subscription || subscription.id !== delivery.subscriptionId) {
    await failDelivery(delivery, 'The webhook subscription was deleted before the event could be delivered');
    return { done: true };
  }
  const result = await postWebhook(
    subscription.url,
    delivery.body,
    {
      'Svc-Signature': signWebhookBody(delivery.body, await signingSecretOf(subscription)),
      'Svc-Event': delivery.eventName,
      'Svc-Webhook-Version': webhookVersion,
    },
    { timeoutMs: timeoutMs(), policy: webhookUrlPolicy() },
  );
  const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
  const last = attempt >= maxAttempts || lastReceive;
  const reason = result.error ?? `the receiver answered ${result.status}`;
  const recorded = await recordAttempt(
    delivery,
    result,
    delivered ? 'delivered' : last ? 'failed' : 'pending',
    {
      number: attempt,
      claim,
      failureReason:
        delivered || !last ? undefined : `No 2xx answer after ${attempt} attempts; the last: ${reason}`,
    },
  );
  // Its claim lapsed and another sender took the attempt over: that one goes on from here.
  if (!recorded) return { done: true };
  count('WebhookAttempts');
  if (!delivered) count('WebhookAttemptFailures');
  if (!delivered && last) count('WebhooksFailed');
  if (delivered || last) return { done: true };
  return {
    done: false,
    retryInSeconds: retryDelaySeconds(attempt, retryBaseSeconds()),
    reason,
    attempt: attempt + 1,
  };
}

/**
 * Makes the event's first delivery to its subscription, its first attempt claimed, or finds it made
 * already. A subscription deleted or replaced since the event was announced gets its delivery
 * failed, for the log to say so. Undefined when there is nothing to attempt.
 */
async function makeDelivery(
  message: DeliveryMessage,
  event: ServiceEvent,
  now: Date,
  claim: Claim,
): Promise<{ delivery: WebhookDelivery; subscription: WebhookSubscription | undefined } | undefined> {
  const subscription = await getSubscription(event.businessId);
  const current = subscription?.id === message.subscriptionId ? subscription : undefined;
  const storeId = event.body.storeId;
  const at = now.toISOString();
  const made = await createDelivery({
    id: message.deliveryId,
    businessId: event.businessId,
    ...(typeof storeId === 'string' ? { storeId } : {}),
    subscriptionId: message.subscriptionId ?? '',
    eventId: event.id,
    eventName: event.name,
    url: current?.url ?? '',
    body: current ? deliveryBodyOf(current, event.name, event.body) : JSON.stringify(event.body),
    status: current ? 'pending' : 'failed',
    ...(current
      ? { claimedUntil: claim.until, claimToken: claim.token }
      : { failureReason: 'The webhook subscription was deleted before the event could be delivered' }),
    attempts: [],
    createdAt: at,
    updatedAt: at,
  });
  return made.delivery.status === 'pending' ? { delivery: made.delivery, subscription: current } : undefined;
}

/**
 * Seconds until the `attempt`-th attempt is due: the backoff after the failure before it, from
 * when that failed attempt began. 0 for a first attempt, and once due.
 */
function secondsUntilDue(made: readonly DeliveryAttempt[], attempt: number, now: Date): number {
  const previous = made.at(-1);
  if (!previous || attempt <= 1) return 0;
  const due = Date.parse(previous.at) + retryDelaySeconds(attempt - 1, retryBaseSeconds()) * 1000;
  return Math.max(0, Math.ceil((due - now.getTime()) / 1000));
}

/**
 * POSTs `body` to `target` and says how it went. The host's addresses are checked against the URL
 * policy after DNS, and the connection is made to those very addresses, so a name cannot be
 * re-pointed at an internal address between the check and the request. Redirects are not
 * followed. Whatever happens, the attempt is answered, never thrown.
 */
export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: {
    timeoutMs: number;
    policy: WebhookUrlPolicy;
    /** The resolver: DNS by default. */
    resolve?: (host: string) => Promise<LookupAddress[]>;
  },
): Promise<DeliveryAttempt> {
  const at = new Date().toISOString();
  const started = performance.now();
  const attempt = (outcome: { status?: number; error?: string; excerpt?: string }): DeliveryAttempt => ({
    at,
    ...(outcome.status !== undefined ? { status: outcome.status } : {}),
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    durationMs: Math.round(performance.now() - started),
    responseExcerpt: outcome.excerpt ?? '',
  });
  const refused = refusedWebhookUrl(target, options.policy);
  if (refused) return attempt({ error: `URL refused: ${refused}` });

  const deadline = AbortSignal.timeout(options.timeoutMs);
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    const family = isIP(host);
    const resolve = options.resolve ?? ((name: string) => lookup(name, { all: true }));
    addresses = family ? [{ address: host, family }] : await abortable(resolve(host), deadline);
  } catch (error) {
    return attempt({ error: failure(error, options.timeoutMs, 'DNS lookup failed') });
  }
  for (const { address } of addresses) {
    const why = refusedAddress(address, options.policy);
    if (why) return attempt({ error: `Address refused for ${host}: ${why}` });
  }
  const traced = httpCall('POST', url);
  try {
    const answer = await send(url, body, headers, addresses, deadline);
    traced(answer.status);
    return attempt(answer);
  } catch (error) {
    traced(undefined);
    return attempt({ error: failure(error, options.timeoutMs, 'Request failed') });
  }
}

function send(
  url: URL,
  body: string,
  headers: Record<string, string>,
  addresses: LookupAddress[],
  deadline: AbortSignal,
): Promise<{ status: number; excerpt: string }> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'User-Agent': 'PartnerPayments-Webhooks/1.0',
      },
      signal: deadline,
      // Only the addresses checked above; Node asks for all of them when it races IPv4 and IPv6.
      lookup: (_hostname, lookupOptions, callback) => {
        const [first] = addresses as [LookupAddress];
        if (lookupOptions.all) (callback as (e: null, all: LookupAddress[]) => void)(null, addresses);
        else callback(null, first.address, first.family);
      },
    });
    outgoing.on('error', reject);
    outgoing.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        resolve({
          status,
          excerpt: Buffer.concat(chunks).subarray(0, responseExcerptBytes).toString('utf8'),
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= responseExcerptBytes) finish();
      });
      response.on('end', finish);
      // The answer's status came in time: a body cut short by the deadline keeps what was read.
      response.on('error', finish);
      response.on('aborted', finish);
    });
    outgoing.end(body);
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function failure(error: unknown, timeoutMs: number, what: string): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `No answer within ${timeoutMs} ms`;
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `${what}: ${typeof code === 'string' ? `${code} ` : ''}${message}`.slice(0, 300);
}
