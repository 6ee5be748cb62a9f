import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict, ValidationFailed } from '#shared/errors/request.ts';

/** Errors of refunds: a completed payment paid back, in whole or in part, to its payer. */
export type RefundErrorId =
  | 'refund_not_found'
  | 'refund_exists_with_reference'
  | 'payment_request_not_refundable';

export class RefundNotFound extends DomainError {
  constructor() {
    super('refund_not_found', 'Refund not found');
  }
}

export class RefundExistsWithReference extends DomainError {
  constructor(reference: string) {
    super('refund_exists_with_reference', `A refund with reference ${reference} already exists`);
  }
}

/** The payment exists but cannot be refunded: not paid, still held in escrow, or refunded whole. */
export class PaymentRequestNotRefundable extends DomainError {
  constructor(reason: string) {
    super('payment_request_not_refundable', `This payment request cannot be refunded: ${reason}`);
  }
}

/** More than what remains refundable of the payment (other refunds took the rest, maybe at the same time). */
export class RefundAboveRemaining extends ValidationFailed {
  constructor(remainingCents: number) {
    super([
      {
        field: 'amountCents',
        rule: 'max',
        message: `The amountCents field must not be greater than what remains refundable of the payment: ${remainingCents}.`,
      },
    ]);
  }
}

/** The refund's claim on the payment's refundable amount failed: another refund took it first. */
export class RefundableTaken extends Conflict {
  constructor() {
    super('Another refund took what remained refundable of the payment');
  }
}

/** The settlement's condition failed: the refund was settled first by another answer. */
export class RefundNoLongerPending extends Conflict {
  constructor() {
    super('The refund is no longer pending');
  }
}
