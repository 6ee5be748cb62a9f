import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { storeKey } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import type { EscrowTerms } from '#shared/domain/escrows.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { PaymentLinkIsInvalid, PaymentLinkNotFound } from '#shared/errors/payment-links.ts';

/**
 * Payment link: an amount a store asks for at a URL it shares (`/pl/<id>`). Single-use by default:
 * once a payment through it completes, it cannot receive payments any more. Reusable links keep
 * accepting.
 *
 * Two customers paying a single-use link at the same moment must not both get through. A payment
 * attempt claims the link, with a condition, in the same transaction that creates its payment
 * request: the claim holds while the attempt is in progress (up to `attemptMinutes`), is released
 * when the attempt fails, and becomes `paidBy` when it succeeds. A declined or abandoned attempt
 * therefore leaves the link open. The browser that made an attempt holds its token (a cookie) and
 * may start over without waiting for its own claim to lapse.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = PLINK#<id>: the link, read by id under the caller's business.
 * - pk = PLINK#<id>, sk = PLINK: which business a link belongs to, for the public page.
 *
 * Cost: create, a condition check on the store and 2 puts: 6 WCU. Get: 0.5 RCU (page: 1 RCU).
 * A claim: 2 WCU in the attempt's transaction; closing or counting: 2 WCU in the completion's.
 */
export interface PaymentLink {
  id: string;
  businessId: string;
  storeId: string;
  storeName: string;
  title: string;
  amountCents: number;
  currency: string;
  allowMultiplePayments: boolean;
  /** The payment request whose success closed a single-use link. */
  paidBy?: string | undefined;
  paymentsCount: number;
  escrowId?: string | undefined;
  /** Each payment through the link is held in its own escrow on these terms (platform keys). */
  escrow?: EscrowTerms | undefined;
  createdAt: string;
  updatedAt: string;
}

export const attemptMinutes = 10;

export const canReceivePayments = (link: PaymentLink) =>
  link.allowMultiplePayments || link.paidBy === undefined;

export const paymentLinkKey = (businessId: string, id: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `PLINK#${id}`,
});
const pointerKey = (id: string) => ({ pk: `PLINK#${id}`, sk: 'PLINK' });

export async function createPaymentLink(link: PaymentLink): Promise<void> {
  const table = tableName();
  await transactWrite([
    {
      write: {
        ConditionCheck: {
          TableName: table,
          Key: storeKey(link.businessId, link.storeId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      onConditionFailed: () => new StoreNotFound(),
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...paymentLinkKey(link.businessId, link.id), entity: 'payment_link', ...link },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...pointerKey(link.id), entity: 'payment_link_pointer', businessId: link.businessId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ]);
}

export async function getPaymentLink(businessId: string, id: string): Promise<PaymentLink | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: paymentLinkKey(businessId, id) }),
  );
  return Item ? toPaymentLink(Item) : undefined;
}

export async function findPaymentLink(id: string): Promise<PaymentLink | undefined> {
  const { Item: pointer } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: pointerKey(id) }),
  );
  return pointer ? getPaymentLink(pointer.businessId as string, id) : undefined;
}

/**
 * The write that lets an attempt through: on a single-use link, only if it is not paid and no
 * other attempt holds it (or the holder is the same browser, or the claim lapsed); on a reusable
 * link, only if it exists.
 */
export function attemptWrite(
  link: PaymentLink,
  attempt: { paymentRequestId: string; token: string },
  now = Date.now(),
): GuardedWrite {
  const key = paymentLinkKey(link.businessId, link.id);
  if (link.allowMultiplePayments) {
    return {
      write: {
        ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' },
      },
      onConditionFailed: () => new PaymentLinkNotFound(),
    };
  }
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET attemptBy = :request, attemptToken = :token, attemptUntil = :until',
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(paidBy) AND (attribute_not_exists(attemptUntil) OR attemptUntil < :now OR attemptToken = :token)',
        ExpressionAttributeValues: {
          ':request': attempt.paymentRequestId,
          ':token': attempt.token,
          ':until': now + attemptMinutes * 60_000,
          ':now': now,
        },
      },
    },
    onConditionFailed: () =>
      new PaymentLinkIsInvalid('This payment link is already paid, or being paid by someone else'),
  };
}

/** In the completion of a successful payment: closes a single-use link (once) or counts one more. */
export function linkPaidWrite(
  businessId: string,
  linkId: string,
  paymentRequestId: string,
  singleUse: boolean,
  escrowId?: string | undefined,
): GuardedWrite {
  const key = paymentLinkKey(businessId, linkId);
  if (!singleUse) {
    return {
      write: {
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'ADD paymentsCount :one SET updatedAt = :now',
          ExpressionAttributeValues: { ':one': 1, ':now': new Date().toISOString() },
        },
      },
    };
  }
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: key,
        // A single-use link's escrow is that of the payment that closed it.
        UpdateExpression: `SET paidBy = :request, updatedAt = :now${escrowId ? ', escrowId = :escrow' : ''} ADD paymentsCount :one REMOVE attemptBy, attemptToken, attemptUntil`,
        ConditionExpression: 'attribute_not_exists(paidBy)',
        ExpressionAttributeValues: {
          ':request': paymentRequestId,
          ':now': new Date().toISOString(),
          ':one': 1,
          ...(escrowId ? { ':escrow': escrowId } : {}),
        },
      },
    },
    onConditionFailed: () => new PaymentLinkIsInvalid('This payment link was already paid'),
  };
}

/** After a failed attempt: the link is open again, unless another attempt took it meanwhile. */
export async function releaseAttempt(
  businessId: string,
  linkId: string,
  paymentRequestId: string,
): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paymentLinkKey(businessId, linkId),
        UpdateExpression: 'REMOVE attemptBy, attemptToken, attemptUntil',
        ConditionExpression: 'attemptBy = :request',
        ExpressionAttributeValues: { ':request': paymentRequestId },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

function toPaymentLink(item: Record<string, unknown>): PaymentLink {
  return {
    id: item.id as string,
    businessId: item.businessId as string,
    storeId: item.storeId as string,
    storeName: item.storeName as string,
    title: item.title as string,
    amountCents: Number(item.amountCents),
    currency: item.currency as string,
    allowMultiplePayments: item.allowMultiplePayments === true,
    paidBy: (item.paidBy as string | undefined) ?? undefined,
    paymentsCount: Number(item.paymentsCount ?? 0),
    escrowId: (item.escrowId as string | undefined) ?? undefined,
    escrow: (item.escrow as EscrowTerms | undefined) ?? undefined,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
