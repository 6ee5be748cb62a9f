import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { PaymentRequestExistsWithReference } from '#shared/errors/payment-requests.ts';

/**
 * A payment request's reference, claimed: references are unique per business. The claim names
 * the request it was made for, and when.
 *
 * Key: pk = BIZ#<businessId>, sk = PAYREF#<reference>.
 *
 * A request without a device, link or escrow is created with two single-item puts, the claim then
 * the request (1 WCU each), instead of one transaction of both (2 each): nothing else is written
 * with it, and each put is conditional on its own item. What the transaction guaranteed, and how
 * the two puts keep it:
 * - never two requests with one reference: the claim is put first, only if absent; a request is
 *   put only by the creator holding the claim, within `claimUsableMs` of it.
 * - a retried put whose first answer was lost (the write done): the claim found names this very
 *   request (ids are random), and the request put finds its own item: both are taken as done.
 * - a creator stopped between the two puts leaves a claim without its request; the reference is
 *   refused (409) until the claim is `abandonedAfterMs` old and its request is still absent (read
 *   consistently), when the next creation with that reference takes the claim over, on the
 *   condition that it still names the absent request. `abandonedAfterMs` is ten times
 *   `claimUsableMs`, so a request is never put after its claim was taken over.
 * Claims made in a transaction with their request (before this, and with a device, link or
 * escrow today) carry no `claimedAt` and are never taken over.
 *
 * Access patterns and cost:
 * - claim: PutItem, 1 WCU (a refused one costs 1 WCU too and returns the claim found).
 * - in a creation's transaction: a put of 2 WCU.
 * - free (a request refused at once by its provider): a delete in that transaction.
 * - take over an abandoned claim: GetItem of the request (1 RCU, consistent) and PutItem, 1 WCU.
 */
export const paymentReferenceKey = (businessId: string, reference: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `PAYREF#${reference}`,
});

/** The creator puts its request at most this long after its claim. */
export const claimUsableMs = 30_000;
/** A claim this old whose request is absent was left by a creator that stopped. */
const abandonedAfterMs = 10 * claimUsableMs;

interface Claim {
  paymentRequestId: string;
  claimedAt?: string;
}

export function referenceClaimItem(businessId: string, reference: string, paymentRequestId: string) {
  return { ...paymentReferenceKey(businessId, reference), entity: 'payment_reference', paymentRequestId };
}

/**
 * Claims `reference` for the request `paymentRequestId`; answers when the claim was made (the
 * creator's deadline counts from it). Refused with PaymentRequestExistsWithReference when another
 * request holds it.
 */
export async function claimReference(
  businessId: string,
  reference: string,
  paymentRequestId: string,
  requestExists: (id: string) => Promise<boolean>,
): Promise<Date> {
  const item = referenceClaimItem(businessId, reference, paymentRequestId);
  // Twice at most: a claim found gone when read (its request refused at once meanwhile) is tried again.
  for (let attempt = 1; ; attempt++) {
    const now = new Date();
    try {
      await documentClient.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...item, claimedAt: now.toISOString() },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return now;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const held = error.Item ? (unmarshall(error.Item) as Claim) : await readClaim(businessId, reference);
      if (held?.paymentRequestId === paymentRequestId) return new Date(held.claimedAt ?? now.toISOString());
      if (!held && attempt < 2) continue;
      if (held && (await isAbandoned(held, now, requestExists))) {
        await takeOver(item, held, now, reference);
        return now;
      }
      throw new PaymentRequestExistsWithReference(reference);
    }
  }
}

async function readClaim(businessId: string, reference: string): Promise<Claim | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: paymentReferenceKey(businessId, reference),
      ConsistentRead: true,
    }),
  );
  return Item as Claim | undefined;
}

async function isAbandoned(
  held: Claim,
  now: Date,
  requestExists: (id: string) => Promise<boolean>,
): Promise<boolean> {
  if (!held.claimedAt || now.getTime() - Date.parse(held.claimedAt) <= abandonedAfterMs) return false;
  return !(await requestExists(held.paymentRequestId));
}

async function takeOver(
  item: ReturnType<typeof referenceClaimItem>,
  held: Claim,
  now: Date,
  reference: string,
): Promise<void> {
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...item, claimedAt: now.toISOString() },
        ConditionExpression: 'paymentRequestId = :abandoned',
        ExpressionAttributeValues: { ':abandoned': held.paymentRequestId },
      }),
    );
  } catch (error) {
    // Another creation took it over first.
    if (error instanceof ConditionalCheckFailedException)
      throw new PaymentRequestExistsWithReference(reference);
    throw error;
  }
}
