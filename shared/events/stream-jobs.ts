import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { sendToQueue } from '#shared/aws/sqs.ts';
import { getBusiness } from '#shared/data/business.ts';
import type { ComplianceVerification } from '#shared/data/compliance-verification.ts';
import { toEscrow } from '#shared/data/escrow.ts';
import type { LinkRequest } from '#shared/data/link-request.ts';
import { toOrphan } from '#shared/data/orphan-collection.ts';
import { toPaymentRequest } from '#shared/data/payment-request.ts';
import { toRefund } from '#shared/data/refund.ts';
import { getStore } from '#shared/data/store.ts';
import { toTransfer } from '#shared/data/transfer.ts';
import { type Announced, announce } from '#shared/events/announce.ts';
import { escrowEvent } from '#shared/events/escrow-events.ts';
import { linkRequestEvent, verificationCompletedEvent } from '#shared/events/partner-events.ts';
import { eventOfCompletedRequest } from '#shared/events/payment-events.ts';
import {
  collectionRefundEvent,
  refundCompletedEvent,
  transferCompletedEvent,
} from '#shared/events/payout-events.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';
import { type ChangedItem, changeOf, type StreamedChangeName } from '#shared/events/table-changes.ts';
import { queueExpiryCheck } from '#shared/operations/expiry-checks.ts';
import type { SmsQueueMessage } from '#shared/operations/messages.ts';

export type StreamImage = Record<string, AttributeValue>;

/** A stream record, as the event source mapping hands it. */
export interface TableChange {
  readonly eventName?: string | undefined;
  readonly oldImage?: StreamImage | undefined;
  readonly newImage?: StreamImage | undefined;
}

export type ChangeOutcome =
  /** Not a declared change, or one that announces nothing (a request refused before any collection). */
  | 'ignored'
  | Announced
  /** A message recorded pending: queued for the sender. */
  | 'sms_queued'
  /** A payment request created: the check at its expiry was queued. */
  | 'expiry_queued';

type Item = Record<string, unknown>;

const businessName = async (businessId: string) => {
  const business = await getBusiness(businessId);
  if (!business) throw new Error(`business ${businessId} is gone`);
  return business.name;
};

const transferEvent = async (item: Item) => {
  const transfer = toTransfer(item);
  return transferCompletedEvent(transfer, await businessName(transfer.businessId));
};

const orphanEvent = async (item: Item) => collectionRefundEvent(toOrphan(item));

const linkEvent = async (item: Item) => linkRequestEvent(item as unknown as LinkRequest);

/** The event each declared change announces (none for a request the provider refused at once). */
const events: {
  [Name in Exclude<StreamedChangeName, 'paymentRequestCreated' | 'messageRecorded'>]: (
    item: Item,
  ) => Promise<ServiceEvent | undefined>;
} = {
  async paymentRequestEnded(item) {
    const request = toPaymentRequest(item);
    return request.transaction
      ? eventOfCompletedRequest(request, await businessName(request.businessId))
      : undefined;
  },
  storeTransferMade: transferEvent,
  transferEnded: transferEvent,
  async refundEnded(item) {
    const refund = toRefund(item);
    const [business, store] = await Promise.all([
      businessName(refund.businessId),
      getStore(refund.businessId, refund.storeId),
    ]);
    if (!store) throw new Error(`the store ${refund.storeId} of refund ${refund.id} is gone`);
    return refundCompletedEvent(refund, { business, store: store.name });
  },
  orphanRecorded: orphanEvent,
  orphanRefundEnded: orphanEvent,
  escrowReleased: async (item) => {
    const escrow = toEscrow(item);
    return escrowEvent('ESCROW_RELEASED', escrow, 'released', escrow.updatedAt);
  },
  escrowRefunded: async (item) => {
    const escrow = toEscrow(item);
    return escrowEvent('ESCROW_REFUNDED', escrow, 'refunded', escrow.updatedAt);
  },
  linkRequestMade: linkEvent,
  linkRequestEnded: linkEvent,
  verificationCompleted: async (item) =>
    verificationCompletedEvent(item as unknown as ComplianceVerification),
};

/** What the changes that announce nothing make happen: the queues they feed. */
const queued = {
  async paymentRequestCreated(item: Item): Promise<ChangeOutcome> {
    if (typeof item.expiresAt !== 'string') return 'ignored';
    await queueExpiryCheck({ paymentRequestId: item.id as string, checkAt: item.expiresAt });
    return 'expiry_queued';
  },
  async messageRecorded(item: Item): Promise<ChangeOutcome> {
    const message: SmsQueueMessage = { businessId: item.businessId as string, messageId: item.id as string };
    await sendToQueue('sms', message);
    return 'sms_queued';
  },
};

/** The declared change a stream record is, with its item as it became. */
export function changedItem(change: TableChange): ChangedItem {
  return {
    eventName: change.eventName,
    before: change.oldImage ? unmarshall(change.oldImage) : undefined,
    after: change.newImage ? unmarshall(change.newImage) : undefined,
  };
}

/**
 * Does what a change of the table makes happen: announces its event to the business's webhook
 * subscription, queues a recorded SMS, or queues a new request's check at its expiry. Throws on a
 * failure, for the record to be retried: whatever a record does is safe to do twice (a delivery's
 * id comes from its event, a message's sender claims it, an expiry check reads the request).
 */
export async function dispatchChange(change: TableChange): Promise<ChangeOutcome> {
  const item = changedItem(change);
  const name = changeOf(item);
  if (!name || !item.after) return 'ignored';
  if (name === 'paymentRequestCreated' || name === 'messageRecorded') return queued[name](item.after);
  const event = await events[name](item.after);
  return event ? announce(event) : 'ignored';
}

/** The event a change announces, if it announces one. */
export async function eventOfChange(change: TableChange): Promise<ServiceEvent | undefined> {
  const item = changedItem(change);
  const name = changeOf(item);
  if (!name || !item.after || name === 'paymentRequestCreated' || name === 'messageRecorded')
    return undefined;
  return events[name](item.after);
}
