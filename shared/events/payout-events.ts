import type { CollectionRefundEvent } from '#shared/api/webhook-events.ts';
import type { OrphanCollection } from '#shared/data/orphan-collection.ts';
import type { Refund } from '#shared/data/refund.ts';
import type { Transfer } from '#shared/data/transfer.ts';
import { identifierLabel } from '#shared/domain/contacts.ts';
import { executedAtFormat } from '#shared/domain/dates.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';

/**
 * The events of money going out, each from its record as its settlement left it (the table's
 * stream carries that record): its instant is the record's `updatedAt`, set by the write that
 * ended it (a store-to-store transfer, which ends as it is made, its `createdAt`).
 */

/** TRANSACTION_COMPLETED of a transfer that reached `success` or `error`. */
export function transferCompletedEvent(transfer: Transfer, businessName: string): ServiceEvent {
  const at = new Date(transfer.updatedAt);
  return {
    id: `TRANSACTION_COMPLETED:${transfer.transactionId}`,
    name: 'TRANSACTION_COMPLETED',
    businessId: transfer.businessId,
    createdAt: at.toISOString(),
    body: {
      id: transfer.transactionId,
      amount: { amount: transfer.amountCents, currency: transfer.currency },
      fees: { amount: transfer.feeCents, currency: transfer.currency },
      status: transfer.status,
      counterpartLabel: transfer.beneficiary,
      counterpartIdentifier: identifierLabel(transfer.beneficiaryIdentifier),
      paymentMethod: transfer.paymentMethod,
      transactionType: 'transfer',
      businessName,
      storeName: transfer.storeName,
      storeId: transfer.storeId,
      description: transfer.description,
      executedAt: executedAtFormat(at),
      transactionDetails: { id: transfer.id, reference: transfer.reference },
    },
  };
}

/** What a refund's transaction-list line says it is. */
export const refundDescription = (refund: Pick<Refund, 'reason' | 'paymentReference'>) =>
  refund.reason ?? `Refund of ${refund.paymentReference}`;

/**
 * REFUND_COMPLETED: the transaction body of the refund's line, `transactionType: "refund"`, whose
 * `transactionDetails` name the refunded payment (and the refund). Sent only to subscriptions that
 * list it (shared/domain/webhook-events.ts).
 */
export function refundCompletedEvent(
  refund: Refund,
  names: { business: string; store: string },
): ServiceEvent {
  const at = new Date(refund.updatedAt);
  return {
    id: `REFUND_COMPLETED:${refund.id}`,
    name: 'REFUND_COMPLETED',
    businessId: refund.businessId,
    createdAt: at.toISOString(),
    body: {
      id: refund.transactionId,
      amount: { amount: refund.amountCents, currency: refund.currency },
      fees: { amount: refund.feeCents, currency: refund.currency },
      status: refund.status,
      counterpartLabel: refund.counterpartLabel,
      counterpartIdentifier: refund.counterpartIdentifier,
      paymentMethod: refund.paymentMethod,
      transactionType: 'refund',
      businessName: names.business,
      storeName: names.store,
      storeId: refund.storeId,
      description: refundDescription(refund),
      executedAt: executedAtFormat(at),
      transactionDetails: {
        id: refund.paymentRequestId,
        reference: refund.paymentReference,
        refundId: refund.id,
        refundReference: refund.reference,
      },
    },
  };
}

/** COLLECTION_REFUND, once when an orphan collection is recorded and once when its refund ends. */
export function collectionRefundEvent(orphan: OrphanCollection): ServiceEvent {
  const at = new Date(orphan.updatedAt);
  return {
    id: `COLLECTION_REFUND:${orphan.id}:${orphan.status}`,
    name: 'COLLECTION_REFUND',
    businessId: orphan.businessId,
    createdAt: at.toISOString(),
    body: {
      id: orphan.id,
      status: orphan.status,
      amount: { amount: orphan.amountCents, currency: orphan.currency },
      paymentMethod: orphan.provider,
      ...(orphan.payerPhone ? { payerPhone: orphan.payerPhone } : {}),
      storeId: orphan.storeId,
      transactionDetails: { id: orphan.paymentRequestId, reference: orphan.reference },
      executedAt: executedAtFormat(at),
    } satisfies CollectionRefundEvent,
  };
}
