import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict } from '#shared/errors/request.ts';

/** Errors of payment requests and their collections (the monthly ceiling, collections that completed nothing). */
export type PaymentRequestErrorId =
  | 'payment_request_not_found'
  | 'payment_request_exists_with_reference'
  | 'collection_ceiling_exceeded'
  | 'payment_request_not_cancellable'
  | 'payment_request_expired';

export class PaymentRequestNotFound extends DomainError {
  constructor() {
    super('payment_request_not_found', 'Payment request not found');
  }
}

export class PaymentRequestExistsWithReference extends DomainError {
  constructor(reference: string) {
    super(
      'payment_request_exists_with_reference',
      `A payment request with reference ${reference} already exists`,
    );
  }
}

export class CollectionCeilingExceeded extends DomainError {
  constructor() {
    super(
      'collection_ceiling_exceeded',
      "This payment would exceed the business's monthly collection ceiling for its verification level",
    );
  }
}

/** Only a request still open may be cancelled: one paid, expired or otherwise ended may not. */
export class PaymentRequestNotCancellable extends DomainError {
  constructor(status: string) {
    super(
      'payment_request_not_cancellable',
      status === 'success'
        ? 'The payment request is paid: it cannot be cancelled'
        : 'The payment request has already ended: it cannot be cancelled',
    );
  }
}

/** A collection may not start on a request past its `expiresAt`. */
export class PaymentRequestExpired extends DomainError {
  constructor() {
    super('payment_request_expired', 'The payment request has expired: no payment can start on it');
  }
}

/** The completion's condition failed: another completion of the request came first. */
export class PaymentAlreadyCompleted extends Conflict {
  constructor() {
    super('The payment request is no longer pending');
  }
}

export class OrphanCollectionAlreadyRecorded extends Conflict {
  constructor() {
    super('The orphan collection is already recorded');
  }
}

/** The collection is the request's current one after all (its start was recorded meanwhile). */
export class CollectionBecameCurrent extends Conflict {
  constructor() {
    super('The collection is the payment request’s own');
  }
}

export class OrphanRefundEnded extends Conflict {
  constructor() {
    super('The orphan collection’s refund has already ended');
  }
}
