import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { sendToQueue } from '#shared/aws/sqs.ts';
import type { SmsDeliveryEvent } from '#shared/domain/sms-events.ts';
import { SmsRefused } from '#shared/errors/messages.ts';
import type { SmsGateway } from '#shared/sms/port.ts';

/**
 * The sandbox SMS gateway, on sandbox stages and the local host: it "sends" to a phone inbox of
 * its own (shown on the local host at /__local/sms) and reports delivery events the way AWS's
 * configuration set does, on the same queue, so the service handles them exactly as it would on
 * production. The destination number chooses the outcome:
 * +2250700000001 delivered · +2250700000002 refused before the carrier (`invalid_number`, the
 * segments are given back) · +2250700000003 taken, then rejected by the carrier
 * (`carrier_rejected`) · +2250700000004 taken and never confirmed (stays `sent`) · any other
 * number: delivered.
 *
 * Inbox keys: pk = SANDBOXSMS#<to>, sk = <sentAt>#<id>; gsi1pk = SANDBOXSMS, gsi1sk =
 * <sentAt>#<id> lists every phone's messages newest first. Kept 7 days (ttl).
 */
export type SandboxSmsBehaviour = 'delivered' | 'invalid_number' | 'carrier_rejected' | 'never_confirmed';

export const sandboxSmsNumbers: Record<string, SandboxSmsBehaviour> = {
  '+2250700000001': 'delivered',
  '+2250700000002': 'invalid_number',
  '+2250700000003': 'carrier_rejected',
  '+2250700000004': 'never_confirmed',
};

export const sandboxSmsBehaviour = (to: string): SandboxSmsBehaviour => sandboxSmsNumbers[to] ?? 'delivered';

const inboxRetentionSeconds = 7 * 24 * 60 * 60;
const inboxPartition = 'SANDBOXSMS';

export interface InboxMessage {
  id: string;
  to: string;
  body: string;
  sentAt: string;
}

export const sandboxSmsGateway: SmsGateway = {
  async send(sms) {
    const behaviour = sandboxSmsBehaviour(sms.to);
    if (behaviour === 'invalid_number')
      throw new SmsRefused('invalid_number', `${sms.to} is not a number any carrier serves`);
    const providerMessageId = `sbxsms_${randomUUID()}`;
    const sentAt = new Date().toISOString();
    if (behaviour !== 'carrier_rejected') {
      await documentClient.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            pk: `${inboxPartition}#${sms.to}`,
            sk: `${sentAt}#${providerMessageId}`,
            gsi1pk: inboxPartition,
            gsi1sk: `${sentAt}#${providerMessageId}`,
            entity: 'sandbox_sms',
            ttl: Math.floor(Date.now() / 1000) + inboxRetentionSeconds,
            id: providerMessageId,
            to: sms.to,
            body: sms.body,
            sentAt,
          },
        }),
      );
    }
    if (behaviour !== 'never_confirmed') {
      const event: SmsDeliveryEvent = {
        eventType: behaviour === 'delivered' ? 'TEXT_DELIVERED' : 'TEXT_CARRIER_BLOCKED',
        eventTimestamp: Date.now(),
        isFinal: true,
        messageId: providerMessageId,
        destinationPhoneNumber: sms.to,
        messageStatus: behaviour === 'delivered' ? 'DELIVERED' : 'CARRIER_BLOCKED',
        context: { businessId: sms.businessId, messageId: sms.messageId },
      };
      await sendToQueue('smsEvents', event);
    }
    return { providerMessageId };
  },
};

/** The newest messages of every sandbox phone, newest first. */
export async function sandboxInbox(limit = 200): Promise<InboxMessage[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': inboxPartition },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items.map((item) => ({
    id: item.id as string,
    to: item.to as string,
    body: item.body as string,
    sentAt: item.sentAt as string,
  }));
}
