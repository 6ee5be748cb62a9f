import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { type PaymentRequest, paymentRequestKey, toPaymentRequest } from '#shared/data/payment-request.ts';

/**
 * Several payment requests by id, for a page that lists things made of payments (escrows, a
 * soundbox's last payment): BatchGetItem, 100 keys at most a call, 0.5 RCU per request read
 * (eventually consistent). Requests of another business than `businessId` are left out, as
 * `getPaymentRequest` leaves them out.
 */
export async function paymentRequestsById(
  businessId: string,
  ids: readonly string[],
): Promise<Map<string, PaymentRequest>> {
  const found = new Map<string, PaymentRequest>();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += 100) {
    let keys: Record<string, unknown>[] = unique.slice(start, start + 100).map(paymentRequestKey);
    while (keys.length > 0) {
      const answer = await documentClient.send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys } } }),
      );
      for (const item of answer.Responses?.[tableName()] ?? []) {
        const request = toPaymentRequest(item);
        if (request.businessId === businessId) found.set(request.id, request);
      }
      keys = answer.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    }
  }
  return found;
}
