import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';

/**
 * Asked payment: a payment request a member asked for from the dashboard, whose hosted page went
 * to the payer by SMS. The request itself is the API's (`PAYREQ#<id>`) and holds the status; this
 * item is the business's list of what it asked, newest first, which the payment requests have no
 * listing of their own for.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = ASKED#<ISO time>#<paymentRequestId>: in time order.
 * - ttl: `retentionDays` after it was asked: the list shows recent asks, the request stays.
 *
 * Access patterns and cost (an item is ~0.3 KB):
 * - record: PutItem, 1 WCU, after the request and its SMS exist.
 * - list the latest: Query pk, begins_with(sk, "ASKED#"), newest first, `limit` items: 0.5 RCU
 *   (20 items are ~6 KB, 1 RCU); each listed request's status is then one GetItem (0.5 RCU).
 */
export interface AskedPayment {
  paymentRequestId: string;
  businessId: string;
  storeId: string;
  /** The SMS that carried the hosted page's address. */
  messageId: string;
  memberId: string;
  askedAt: string;
}

export const retentionDays = 90;

const askedPrefix = 'ASKED#';

export async function putAskedPayment(asked: AskedPayment): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: `BIZ#${asked.businessId}`,
        sk: `${askedPrefix}${asked.askedAt}#${asked.paymentRequestId}`,
        entity: 'asked_payment',
        ...asked,
        ttl: Math.ceil(Date.parse(asked.askedAt) / 1000) + retentionDays * 86_400,
      },
    }),
  );
}

/** The business's latest asks, newest first. */
export async function latestAskedPayments(businessId: string, limit: number): Promise<AskedPayment[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `BIZ#${businessId}`, ':prefix': askedPrefix },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items.map((item) => ({
    paymentRequestId: item.paymentRequestId as string,
    businessId: item.businessId as string,
    storeId: item.storeId as string,
    messageId: item.messageId as string,
    memberId: item.memberId as string,
    askedAt: item.askedAt as string,
  }));
}
