import { DomainError } from '#shared/errors/domain-error.ts';

/**
 * Errors of the dashboard's team and sessions. They reuse the interface's ids (a page shows them;
 * no integration reads them), so they add no status to the field contract's table.
 */

/**
 * The session acts for no business yet (a person with several has not picked one), or no longer
 * (removed from it). Dashboard pages send the person to the businesses page instead.
 */
export class BusinessNotChosen extends DomainError {
  constructor() {
    super('forbidden_action', 'Choose the business to act for first');
  }
}

/** Not a member of the acting business: another business's member is not found either. */
export class MemberNotFound extends DomainError {
  constructor() {
    super('not_found', 'Member not found');
  }
}

/** Not a pending invitation of the acting business (cancelled, accepted, replaced or expired). */
export class InvitationNotFound extends DomainError {
  constructor() {
    super('not_found', 'Invitation not found');
  }
}

/** A business keeps at least one owner: its last cannot be removed or given another role. */
export class LastOwner extends DomainError {
  constructor() {
    super('conflict', 'The last owner of a business cannot be removed or given another role');
  }
}
