import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import type { SmsEncoding } from '#shared/domain/sms-segments.ts';
import {
  InsufficientSmsBalance,
  MessageAlreadySettled,
  MessageExistsWithReference,
  SmsCreditAlreadyRecorded,
} from '#shared/errors/messages.ts';

/**
 * Messages (SMS) and each business's message account, whose `smsBalance` is a number of
 * segments. A message takes its segments from the balance in the very transaction that records
 * it, under the condition that the balance covers them: however many sends race, the balance
 * never goes below zero, and a refused send records nothing. A message that fails before the
 * carrier takes it gives its segments back in the transaction that marks it failed, under a
 * condition that it was never given back: once.
 *
 * The balance is auditable from the records beside it: the sum of the credits (one item each,
 * put only if absent, so a retried credit counts once) less the segments of the charged messages
 * that were not refunded.
 *
 * Keys (all in the business's partition, so another business's message is not found):
 * - sk = MSG#<id>: the message; gsi1pk = BIZ#<businessId>#MSG, gsi1sk = <createdAt>#<id> lists
 *   them newest first.
 * - sk = MSGREF#<reference>: the reference's claim; references are unique per business.
 * - sk = MSGACCOUNT: the account, created with zero balances on first use.
 * - sk = SMSCREDIT#<entryId>: an operator's top-up.
 * Messages the platform sends itself (one-time codes) live under BIZ#platform and charge nobody.
 *
 * Access patterns and cost (items under 1 KB; a message with its index entry ~2 WCU to put):
 * - send: TransactWriteItems of the account update, the reference claim and the message: 7 WCU.
 * - get by id: GetItem, 0.5 RCU (1 consistent, the sender).
 * - claim for sending: UpdateItem, 2 WCU with the index entry (the item is rewritten in the
 *   index, which projects it whole); a release after a passing gateway failure, 2 WCU more. The
 *   claim's attributes are removed by the write that marks the message sent or failed.
 * - mark sent, delivered or failed: UpdateItem, 2 WCU with the index entry.
 * - fail before the carrier and refund: TransactWriteItems of 2 updates: 4 WCU.
 * - account: GetItem, 0.5 RCU; the first read also puts it, 1 WCU.
 * - credit: TransactWriteItems of the credit record and the account: 4 WCU.
 * - list: Query on gsi1 reading every message of the business to count `total`: 0.5 RCU per 4 KB.
 */
export type MessageStatus = 'pending' | 'sent' | 'delivered' | 'failed';
export const messageStatuses = [
  'pending',
  'sent',
  'delivered',
  'failed',
] as const satisfies readonly MessageStatus[];
export type MessageChannel = 'sms';

export interface Message {
  id: string;
  businessId: string;
  channel: MessageChannel;
  to: string;
  body: string;
  reference: string;
  status: MessageStatus;
  failedReason: string | null;
  segments: number;
  encoding: SmsEncoding;
  /** Whether the segments were taken from the business's balance (platform messages are not). */
  charged: boolean;
  /** The carrier gateway's id, once it accepted the message. */
  providerMessageId?: string | undefined;
  /** When the segments were given back, for a message that failed before the carrier. */
  refundedAt?: string | undefined;
  createdAt: string;
  updatedAt: string;
}

export interface MessageAccount {
  id: string;
  businessId: string;
  smsBalance: number;
  whatsappBalance: number;
  createdAt: string;
}

/** The pseudo-business of messages the platform sends on its own account (one-time codes). */
export const platformBusinessId = 'platform';

export const messageKey = (businessId: string, id: string) => ({ pk: `BIZ#${businessId}`, sk: `MSG#${id}` });
const referenceKey = (businessId: string, reference: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `MSGREF#${reference}`,
});
export const accountKey = (businessId: string) => ({ pk: `BIZ#${businessId}`, sk: 'MSGACCOUNT' });
const creditKey = (businessId: string, entryId: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `SMSCREDIT#${entryId}`,
});
const listPartition = (businessId: string) => `BIZ#${businessId}#MSG`;

/**
 * Records a pending message, its reference claim and, when charged, the debit of its segments,
 * all or nothing.
 */
export async function createMessage(message: Message): Promise<void> {
  const table = tableName();
  const writes: GuardedWrite[] = [
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...referenceKey(message.businessId, message.reference),
            entity: 'message_reference',
            messageId: message.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new MessageExistsWithReference(message.reference),
    },
  ];
  if (message.charged) {
    writes.push({
      write: {
        Update: {
          TableName: table,
          Key: accountKey(message.businessId),
          // A missing account has no balance: the condition fails, as for a balance of zero.
          UpdateExpression: 'SET smsBalance = smsBalance - :segments',
          ConditionExpression: 'smsBalance >= :segments',
          ExpressionAttributeValues: { ':segments': message.segments },
        },
      },
      onConditionFailed: () => new InsufficientSmsBalance(message.segments),
    });
  }
  writes.push({
    write: {
      Put: {
        TableName: table,
        Item: {
          ...messageKey(message.businessId, message.id),
          gsi1pk: listPartition(message.businessId),
          gsi1sk: `${message.createdAt}#${message.id}`,
          entity: 'message',
          ...message,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  });
  await transactWrite(writes);
}

export async function getMessage(
  businessId: string,
  id: string,
  consistent = false,
): Promise<Message | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: messageKey(businessId, id), ConsistentRead: consistent }),
  );
  return Item ? toMessage(Item) : undefined;
}

/**
 * How long a sender's claim on a message holds: longer than the sender worker may run (its
 * timeout is a sixth of the queue's visibility timeout), shorter than the visibility timeout, so
 * the queue message of a sender killed after claiming comes back to a claim that has lapsed.
 */
export const sendingLeaseSeconds = 30;

/**
 * Claims a pending message for one gateway call: it must be pending with no live claim (none, or
 * one whose lease lapsed, its sender gone). Answers the claim's token, or undefined when the
 * message is not pending or another sender holds it. The claim lives in `sendingUntil` and
 * `sendingClaim`, which are not part of the message's public shape.
 */
export async function claimForSending(
  message: Pick<Message, 'businessId' | 'id'>,
  now: Date = new Date(),
): Promise<string | undefined> {
  const claim = randomUUID();
  const until = new Date(now.getTime() + sendingLeaseSeconds * 1000).toISOString();
  const claimed = await conditionalUpdate(
    message,
    'SET sendingUntil = :until, sendingClaim = :claim',
    // Its own claim passes too: the SDK's retry of a claim whose answer was lost.
    '#status = :pending AND (attribute_not_exists(sendingUntil) OR sendingUntil < :at OR sendingClaim = :claim)',
    { ':until': until, ':claim': claim, ':pending': 'pending', ':at': now.toISOString() },
  );
  return claimed ? claim : undefined;
}

/** Gives up this sender's claim, so the queue's retry may send the message; another's is kept. */
export async function releaseClaim(
  message: Pick<Message, 'businessId' | 'id'>,
  claim: string,
): Promise<boolean> {
  return conditionalUpdate(message, 'REMOVE sendingUntil, sendingClaim', 'sendingClaim = :claim', {
    ':claim': claim,
  });
}

/** The carrier gateway accepted the message; only a pending message becomes sent. */
export async function markSent(
  message: Pick<Message, 'businessId' | 'id'>,
  providerMessageId: string,
): Promise<boolean> {
  return conditionalUpdate(
    message,
    'SET #status = :sent, providerMessageId = :providerId, updatedAt = :now REMOVE sendingUntil, sendingClaim',
    '#status = :pending',
    { ':sent': 'sent', ':providerId': providerMessageId, ':pending': 'pending' },
  );
}

/**
 * What the carrier reported: delivered, or failed after it took the message (no refund: the
 * carrier charged it). A final status is never changed again.
 */
export async function recordCarrierOutcome(
  message: Pick<Message, 'businessId' | 'id'>,
  outcome: { status: 'sent' | 'delivered' | 'failed'; failedReason?: string | undefined },
): Promise<boolean> {
  const from = outcome.status === 'sent' ? '#status = :pending' : '#status IN (:pending, :sent)';
  return conditionalUpdate(message, 'SET #status = :status, failedReason = :reason, updatedAt = :now', from, {
    ':status': outcome.status,
    ':reason': outcome.failedReason ?? null,
    ':pending': 'pending',
    ...(outcome.status === 'sent' ? {} : { ':sent': 'sent' }),
  });
}

/**
 * Fails a pending message that never reached the carrier and gives its segments back, once: the
 * message's condition (still pending, never refunded) guards the refund in the same transaction.
 * `releaseReference` frees the reference too, for a message that never left the service.
 * Answers whether this call did it.
 */
export async function failBeforeCarrier(
  message: Pick<Message, 'businessId' | 'id' | 'segments' | 'charged' | 'reference'>,
  failedReason: string,
  options: { releaseReference?: boolean } = {},
): Promise<boolean> {
  const table = tableName();
  const now = new Date().toISOString();
  const writes: GuardedWrite[] = [
    {
      write: {
        Update: {
          TableName: table,
          Key: messageKey(message.businessId, message.id),
          UpdateExpression:
            'SET #status = :failed, failedReason = :reason, refundedAt = :now, updatedAt = :now REMOVE sendingUntil, sendingClaim',
          ConditionExpression: '#status = :pending AND attribute_not_exists(refundedAt)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':failed': 'failed',
            ':reason': failedReason,
            ':now': now,
            ':pending': 'pending',
          },
        },
      },
      onConditionFailed: () => new MessageAlreadySettled(),
    },
  ];
  if (message.charged) {
    writes.push({
      write: {
        Update: {
          TableName: table,
          Key: accountKey(message.businessId),
          UpdateExpression: 'ADD smsBalance :segments',
          ExpressionAttributeValues: { ':segments': message.segments },
        },
      },
    });
  }
  if (options.releaseReference) {
    writes.push({
      write: { Delete: { TableName: table, Key: referenceKey(message.businessId, message.reference) } },
    });
  }
  try {
    await transactWrite(writes);
    return true;
  } catch (error) {
    if (error instanceof MessageAlreadySettled) return false;
    throw error;
  }
}

/**
 * The business's account, created with zero balances when it is first asked for; `consistent`
 * after a change of this request's own (a purchase's new balance).
 */
export async function getOrCreateAccount(businessId: string, consistent = false): Promise<MessageAccount> {
  const existing = await getAccount(businessId, consistent);
  if (existing?.id) return existing;
  const account: MessageAccount = {
    id: randomUUID(),
    businessId,
    smsBalance: 0,
    whatsappBalance: 0,
    createdAt: new Date().toISOString(),
  };
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...accountKey(businessId), entity: 'message_account', ...account },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return account;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // Made meanwhile by another request, or by a credit: that one is the account.
    return (await getAccount(businessId, true)) as MessageAccount;
  }
}

async function getAccount(businessId: string, consistent = false): Promise<MessageAccount | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: accountKey(businessId), ConsistentRead: consistent }),
  );
  if (!Item) return undefined;
  return {
    id: Item.id as string,
    businessId,
    smsBalance: Number(Item.smsBalance ?? 0),
    whatsappBalance: Number(Item.whatsappBalance ?? 0),
    createdAt: Item.createdAt as string,
  };
}

/**
 * Adds `segments` to the business's SMS balance, recorded as a credit of its own. A credit with an
 * `entryId` already used changes nothing (a retried top-up). Answers whether it was added.
 */
export async function creditSms(businessId: string, segments: number, entryId: string): Promise<boolean> {
  try {
    await transactWrite(smsCreditWrites(businessId, segments, entryId));
    return true;
  } catch (error) {
    if (error instanceof SmsCreditAlreadyRecorded) return false;
    throw error;
  }
}

/**
 * The credit's record (once per `entryId`) and the balance's increase, for a transaction: the
 * operator's top-up alone, or a purchase with the ledger entry that pays for it.
 */
export function smsCreditWrites(businessId: string, segments: number, entryId: string): GuardedWrite[] {
  const table = tableName();
  const now = new Date().toISOString();
  return [
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...creditKey(businessId, entryId),
            entity: 'sms_credit',
            entryId,
            segments,
            createdAt: now,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new SmsCreditAlreadyRecorded(),
    },
    {
      write: {
        Update: {
          TableName: table,
          Key: accountKey(businessId),
          UpdateExpression:
            'SET id = if_not_exists(id, :id), businessId = :businessId, entity = :entity, createdAt = if_not_exists(createdAt, :now), whatsappBalance = if_not_exists(whatsappBalance, :zero) ADD smsBalance :segments',
          ExpressionAttributeValues: {
            ':id': randomUUID(),
            ':businessId': businessId,
            ':entity': 'message_account',
            ':now': now,
            ':zero': 0,
            ':segments': segments,
          },
        },
      },
    },
  ];
}

export interface MessageListing {
  total: number;
  items: Message[];
}

/** A page of the business's messages, newest first, optionally of one status. */
export async function listMessages(
  businessId: string,
  query: { status?: MessageStatus | undefined; page: number; limit: number },
): Promise<MessageListing> {
  const first = (query.page - 1) * query.limit;
  const items: Message[] = [];
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ...(query.status
          ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }
          : {}),
        ExpressionAttributeValues: {
          ':pk': listPartition(businessId),
          ...(query.status ? { ':status': query.status } : {}),
        },
        ScanIndexForward: false,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (total >= first && items.length < query.limit) items.push(toMessage(item));
      total++;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { total, items };
}

async function conditionalUpdate(
  message: Pick<Message, 'businessId' | 'id'>,
  update: string,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.businessId, message.id),
        UpdateExpression: update,
        ConditionExpression: condition,
        // DynamoDB refuses names and values the expressions do not use.
        ...(`${update} ${condition}`.includes('#status')
          ? { ExpressionAttributeNames: { '#status': 'status' } }
          : {}),
        ExpressionAttributeValues: {
          ...values,
          ...(update.includes(':now') ? { ':now': new Date().toISOString() } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

function toMessage(item: Record<string, unknown>): Message {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _gpk,
    gsi1sk: _gsk,
    entity: _entity,
    sendingUntil: _until,
    sendingClaim: _claim,
    ...rest
  } = item;
  const message = rest as unknown as Message;
  return { ...message, failedReason: message.failedReason ?? null };
}
