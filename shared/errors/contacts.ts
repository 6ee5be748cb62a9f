import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict } from '#shared/errors/request.ts';

/** Errors of contacts (the beneficiaries of transfers). */
export type ContactErrorId = 'contact_not_found';

export class ContactNotFound extends DomainError {
  constructor() {
    super('contact_not_found', 'Contact not found');
  }
}

/** Another request claimed the same beneficiary first: read it again and use that contact. */
export class BeneficiaryClaimed extends Conflict {
  constructor() {
    super('A contact for this beneficiary was created at the same time');
  }
}
