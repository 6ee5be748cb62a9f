import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { getBusiness } from '#shared/data/business.ts';
import type { OutboxEvent } from '#shared/data/outbox.ts';
import { toPaymentRequest } from '#shared/data/payment-request.ts';
import { deliveryIdFor, getDelivery } from '#shared/data/webhook-delivery.ts';
import { getSubscription, subscribedTo } from '#shared/data/webhook-subscription.ts';
import { type ExpiryCheck, queueExpiryCheck } from '#shared/operations/expiry-checks.ts';
import { queueFromStream } from '#shared/operations/messages.ts';
import { eventOfCompletedRequest } from '#shared/operations/payment-events.ts';
import { dispatchOutboxEvent, queueRecovery } from '#shared/operations/webhook-dispatch.ts';

/**
 * The table's stream as the outbox of payment completions: a completed payment request's change
 * is its TRANSACTION_COMPLETED event, so the completion writes no event item (3 WCU saved a
 * payment). The function that completed the request dispatches the event at once; this is what
 * makes up for that dispatch when it did not happen, in the place of the outbox sweeper.
 *
 * A change is a stream record (`NEW_AND_OLD_IMAGES`) whose old image is a `pending` request and
 * new image a completed one. The event source mapping filters on that, so nothing else reaches
 * the function; the test is repeated here because the local host's poller does not filter.
 * Reading the stream costs nothing on Lambda; each change costs the business's subscription and
 * name (0.5 RCU each) and its delivery (0.5 RCU), and a write only when something was missing.
 *
 * It is the outbox of SMS too: a message INSERTed `pending` is queued again, delayed (see
 * `queueFromStream`), for no table read at all: one SQS send a message. And a payment request
 * INSERTed gets the check at its expiry (shared/operations/expiry-checks.ts): one SQS send, no
 * read, and no write on the payment's path.
 */
export type StreamImage = Record<string, AttributeValue>;

export interface TableChange {
  readonly eventName?: string | undefined;
  readonly oldImage?: StreamImage | undefined;
  readonly newImage?: StreamImage | undefined;
}

export type ChangeOutcome =
  /** Not a completion, or one that announces nothing (a request refused before any collection). */
  | 'ignored'
  | 'not_subscribed'
  /** The delivery was missing: made and sent now. */
  | 'dispatched'
  /** Made, never attempted yet: a recovery message checks on it in 15 minutes. */
  | 'recovery_queued'
  /** Made and attempted already. */
  | 'already_dispatched'
  /** A message recorded pending: a delayed copy of its queue message was sent. */
  | 'sms_queued'
  /** A payment request created: the check at its expiry was queued. */
  | 'expiry_queued';

/** The message a change recorded pending, or nothing. */
function pendingMessageOf(change: TableChange): { businessId: string; id: string } | undefined {
  if (change.eventName !== 'INSERT' || !change.newImage) return undefined;
  const item = unmarshall(change.newImage);
  if (item.entity !== 'message' || item.status !== 'pending') return undefined;
  return { businessId: item.businessId as string, id: item.id as string };
}

/** The payment request a change created, or nothing. */
function createdRequestOf(change: TableChange): ExpiryCheck | undefined {
  if (change.eventName !== 'INSERT' || !change.newImage) return undefined;
  const item = unmarshall(change.newImage);
  if (item.entity !== 'payment_request' || typeof item.expiresAt !== 'string') return undefined;
  return { paymentRequestId: item.id as string, checkAt: item.expiresAt };
}

/** The event a change announces, or nothing. */
export async function eventOfChange(change: TableChange): Promise<OutboxEvent | undefined> {
  if (change.eventName !== 'MODIFY' || !change.oldImage || !change.newImage) return undefined;
  const before = unmarshall(change.oldImage);
  const after = unmarshall(change.newImage);
  if (after.entity !== 'payment_request') return undefined;
  if (before.status !== 'pending' || after.status === 'pending') return undefined;
  const request = toPaymentRequest(after);
  // Refused by the provider at once: no money moved, no transaction, no event.
  if (!request.transaction) return undefined;
  const business = await getBusiness(request.businessId);
  if (!business) throw new Error(`business ${request.businessId} of payment request ${request.id} is gone`);
  return eventOfCompletedRequest(request, business.name);
}

/**
 * Makes sure the change's event reached the webhook queue. A missing delivery is made and sent (a
 * concurrent prompt dispatch finds it made, at worst sends it once more, which receivers dedupe on
 * the body's id); one made but never attempted is probably on its way, so it is checked on in 15
 * minutes rather than sent twice now. Throws on a failure, for the record to be retried.
 */
export async function dispatchChange(change: TableChange): Promise<ChangeOutcome> {
  const message = pendingMessageOf(change);
  if (message) {
    await queueFromStream(message);
    return 'sms_queued';
  }
  const created = createdRequestOf(change);
  if (created) {
    await queueExpiryCheck(created);
    return 'expiry_queued';
  }
  const event = await eventOfChange(change);
  if (!event) return 'ignored';
  const subscription = await getSubscription(event.businessId);
  if (!subscription || !subscribedTo(subscription, event.name) || subscription.createdAt > event.createdAt) {
    return 'not_subscribed';
  }
  const delivery = await getDelivery(event.businessId, deliveryIdFor(event, subscription.id), true);
  if (!delivery) {
    await dispatchOutboxEvent(event, subscription);
    return 'dispatched';
  }
  if (delivery.status === 'pending' && delivery.attempts.length === 0) {
    await queueRecovery(delivery);
    return 'recovery_queued';
  }
  return 'already_dispatched';
}
