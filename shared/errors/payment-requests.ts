import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict } from '#shared/errors/request.ts';

/** Errors of payment requests and their collections (the monthly ceiling, collections that completed nothing). */
export type PaymentRequestErrorId =
  | 'payment_request_not_found'
  | 'payment_request_exists_with_reference'
  | 'collection_ceiling_exceeded';

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
