import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict } from '#shared/errors/request.ts';

/** Errors of transfers (payouts, and moves between a business's stores). */
export type TransferErrorId = 'transfer_not_found' | 'transfer_exists_with_reference';

export class TransferNotFound extends DomainError {
  constructor() {
    super('transfer_not_found', 'Transfer not found');
  }
}

export class TransferExistsWithReference extends DomainError {
  constructor(reference: string) {
    super('transfer_exists_with_reference', `A transfer with reference ${reference} already exists`);
  }
}

/** The settlement's condition failed: the transfer was settled first by another answer. */
export class TransferNoLongerPending extends Conflict {
  constructor() {
    super('The transfer is no longer pending');
  }
}
