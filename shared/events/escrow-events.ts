import type { Escrow } from '#shared/data/escrow.ts';
import type { EscrowStatus } from '#shared/domain/escrows.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';

export type EscrowEventName = 'ESCROW_HELD' | 'ESCROW_RELEASED' | 'ESCROW_REFUNDED';

/** An escrow event, with the same signing and delivery as the other webhooks (from the table's stream). */
export function escrowEvent(
  name: EscrowEventName,
  escrow: Pick<
    Escrow,
    | 'id'
    | 'businessId'
    | 'storeId'
    | 'amount'
    | 'currency'
    | 'paymentRequestId'
    | 'paymentLinkId'
    | 'holdUntil'
  >,
  status: EscrowStatus,
  occurredAt: string,
): ServiceEvent {
  return {
    id: `${name}:${escrow.id}`,
    name,
    businessId: escrow.businessId,
    createdAt: occurredAt,
    body: {
      event: name,
      escrowId: escrow.id,
      status,
      storeId: escrow.storeId,
      amount: { amount: escrow.amount, currency: escrow.currency },
      paymentRequestId: escrow.paymentRequestId,
      paymentLinkId: escrow.paymentLinkId,
      holdUntil: escrow.holdUntil,
      occurredAt,
    },
  };
}
