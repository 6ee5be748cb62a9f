import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryPrefix } from '#shared/data/query.ts';
import { storeKey } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import type { EscrowTerms } from '#shared/domain/escrows.ts';
import { isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import {
  PaymentLinkAlreadyUsed,
  PaymentLinkIsInvalid,
  PaymentLinkNotFound,
} from '#shared/errors/payment-links.ts';

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
 * The merchant may switch a link off (`active` false; links written before it existed lack the
 * attribute and are active). The claim is conditioned on the link being active, so an attempt
 * racing a deactivation is decided by whichever write lands first; an attempt claimed before
 * goes on to its end (the payer may already be paying at the provider).
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = PLINK#<id>: the link, read by id under the caller's business, and
 *   the business's links together (a query on the prefix).
 * - pk = PLINK#<id>, sk = PLINK: which business a link belongs to, for the public page.
 *
 * Cost (a link is about 400 bytes): create, a condition check on the store and 2 puts: 6 WCU. Get:
 * 0.5 RCU (page: 1 RCU). A claim: 2 WCU in the attempt's transaction; closing or counting: 2 WCU in
 * the completion's. Switch on or off: UpdateItem, 1 WCU (after the 0.5 RCU read that finds it for
 * the caller). List: a Query of the business's partition on `PLINK#`, reading every link of the
 * business (about 10 a 0.5 RCU, eventually consistent: 5 RCU for 100 links, `npm run bench --
 * capacity`) to sort them newest first and count `total`; the store and `active` filters do not
 * lower it. Links have no index entry, so listing costs no write on any claim or completion, and
 * links made before the listing existed are in it.
 */
export interface PaymentLink {
  id: string;
  businessId: string;
  storeId: string;
  storeName: string;
  /** The store's country when the link was made: the link page's first choice of country. */
  storeCountry?: UemoaCountry | undefined;
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
  /** False once the merchant switched it off: it takes no new attempt until switched on. */
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export const attemptMinutes = 10;

export const canReceivePayments = (link: PaymentLink) =>
  link.active && (link.allowMultiplePayments || link.paidBy === undefined);

/** A link is active unless switched off; links older than the switch have no `active` at all. */
const isActive = '(attribute_not_exists(#active) OR #active = :true)';

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
        ConditionCheck: {
          TableName: tableName(),
          Key: key,
          // Links are never deleted: failing this, the link was switched off.
          ConditionExpression: `attribute_exists(pk) AND ${isActive}`,
          ExpressionAttributeNames: { '#active': 'active' },
          ExpressionAttributeValues: { ':true': true },
        },
      },
      onConditionFailed: () => new PaymentLinkIsInvalid('This payment link is no longer active'),
    };
  }
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET attemptBy = :request, attemptToken = :token, attemptUntil = :until',
        ConditionExpression: `attribute_exists(pk) AND ${isActive} AND attribute_not_exists(paidBy) AND (attribute_not_exists(attemptUntil) OR attemptUntil < :now OR attemptToken = :token)`,
        ExpressionAttributeNames: { '#active': 'active' },
        ExpressionAttributeValues: {
          ':request': attempt.paymentRequestId,
          ':token': attempt.token,
          ':until': now + attemptMinutes * 60_000,
          ':now': now,
          ':true': true,
        },
      },
    },
    onConditionFailed: () =>
      new PaymentLinkIsInvalid(
        'This payment link is already paid, being paid by someone else, or no longer active',
      ),
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

/**
 * Switches a link on or off and answers it as it is then. Switching on a single-use link already
 * paid is refused, under a condition, so a payment completing meanwhile cannot slip past it.
 */
export async function setPaymentLinkActive(
  link: Pick<PaymentLink, 'businessId' | 'id'>,
  active: boolean,
): Promise<PaymentLink> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paymentLinkKey(link.businessId, link.id),
        UpdateExpression: 'SET #active = :active, updatedAt = :now',
        ConditionExpression: active
          ? 'attribute_exists(pk) AND (allowMultiplePayments = :true OR attribute_not_exists(paidBy))'
          : 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#active': 'active' },
        ExpressionAttributeValues: {
          ':active': active,
          ':now': new Date().toISOString(),
          ...(active ? { ':true': true } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toPaymentLink(Attributes ?? {});
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // Links are never deleted: the caller found it, so only switching on a paid one fails here.
    throw active ? new PaymentLinkAlreadyUsed() : new PaymentLinkNotFound();
  }
}

/** Every link of a business, newest first, of one store and in one state if asked. */
export async function listPaymentLinks(
  businessId: string,
  filter: { storeId?: string | undefined; active?: boolean | undefined },
): Promise<PaymentLink[]> {
  const links = (await queryPrefix(`BIZ#${businessId}`, 'PLINK#')).map(toPaymentLink);
  return links
    .filter(
      (link) =>
        (filter.storeId === undefined || link.storeId === filter.storeId) &&
        (filter.active === undefined || link.active === filter.active),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

function toPaymentLink(item: Record<string, unknown>): PaymentLink {
  return {
    id: item.id as string,
    businessId: item.businessId as string,
    storeId: item.storeId as string,
    storeName: item.storeName as string,
    ...(isUemoaCountry(item.storeCountry) ? { storeCountry: item.storeCountry } : {}),
    title: item.title as string,
    amountCents: Number(item.amountCents),
    currency: item.currency as string,
    allowMultiplePayments: item.allowMultiplePayments === true,
    paidBy: (item.paidBy as string | undefined) ?? undefined,
    paymentsCount: Number(item.paymentsCount ?? 0),
    escrowId: (item.escrowId as string | undefined) ?? undefined,
    escrow: (item.escrow as EscrowTerms | undefined) ?? undefined,
    active: item.active !== false,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
