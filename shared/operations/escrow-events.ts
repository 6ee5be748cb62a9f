import type { Escrow } from '#shared/data/escrow.ts';
import type { OutboxEvent } from '#shared/data/outbox.ts';
import type { EscrowStatus } from '#shared/domain/escrows.ts';

export type EscrowEventName = 'ESCROW_HELD' | 'ESCROW_RELEASED' | 'ESCROW_REFUNDED';

/** An escrow event, with the same signing and delivery as the other webhooks (through the outbox). */
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
): OutboxEvent {
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
