import type { TransactionCompletedEvent } from '#shared/api/webhook-events.ts';
import type { PaymentRequest, PaymentRequestEscrow } from '#shared/data/payment-request.ts';
import { escrowEvent } from '#shared/events/escrow-events.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';

/**
 * The TRANSACTION_COMPLETED event of a completed request, from the request alone (and its
 * business's name), so the completing function and the stream dispatcher build the same event:
 * same id, same instant (the request's `updatedAt`, set by the completion and never after), hence
 * the same delivery.
 */
export function eventOfCompletedRequest(request: PaymentRequest, businessName: string): ServiceEvent {
  const transaction = request.transaction;
  if (!transaction || request.status === 'pending') {
    throw new Error(`payment request ${request.id} is not completed`);
  }
  if (request.escrow && request.status === 'success')
    return heldEvent(request, request.escrow, request.updatedAt);
  return {
    id: `TRANSACTION_COMPLETED:${transaction.id}`,
    name: 'TRANSACTION_COMPLETED',
    businessId: request.businessId,
    createdAt: request.updatedAt,
    body: {
      id: transaction.id,
      amount: transaction.amount,
      fees: transaction.fees,
      status: transaction.status,
      counterpartLabel: transaction.counterpartLabel,
      counterpartIdentifier: transaction.counterpartIdentifier,
      paymentMethod: request.collectionMethod ?? request.paymentMethod,
      transactionType: 'payment',
      businessName,
      storeName: request.storeName,
      storeId: request.storeId,
      description: transaction.description,
      executedAt: transaction.executedAt,
      transactionDetails: {
        id: request.id,
        reference: request.reference,
        ...(request.paymentLinkId ? { paymentLinkId: request.paymentLinkId } : {}),
      },
    } satisfies TransactionCompletedEvent,
  };
}

/** A payment that lands in escrow is announced as ESCROW_HELD instead of TRANSACTION_COMPLETED. */
function heldEvent(request: PaymentRequest, escrow: PaymentRequestEscrow, occurredAt: string): ServiceEvent {
  return escrowEvent(
    'ESCROW_HELD',
    {
      id: escrow.id,
      businessId: request.businessId,
      storeId: request.storeId,
      amount: request.amountCents,
      currency: request.currency,
      paymentRequestId: request.id,
      paymentLinkId: request.paymentLinkId ?? null,
      holdUntil: escrow.holdUntil,
    },
    'held',
    occurredAt,
  );
}
