import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict } from '#shared/errors/request.ts';

/** Errors of service providers: onboarding businesses, linking to them, verifying them. */
export type ServiceProviderErrorId =
  | 'already_linked'
  | 'user_already_exists'
  | 'user_not_found'
  | 'no_owned_business'
  | 'business_link_request_not_found';

export class UserAlreadyExists extends DomainError {
  constructor() {
    super('user_already_exists', 'A user with this phone number already exists');
  }
}

export class UserNotFound extends DomainError {
  constructor() {
    super('user_not_found', 'No user has this phone number; onboard the business instead');
  }
}

export class NoOwnedBusiness extends DomainError {
  constructor() {
    super('no_owned_business', 'The user owns no business');
  }
}

export class BusinessLinkRequestNotFound extends DomainError {
  constructor() {
    super('business_link_request_not_found', 'Business link request not found');
  }
}

/** The interface's `already_linked`: its `extras` is the merchant business id. */
export class AlreadyLinked extends DomainError {
  constructor(merchantBusinessId: string) {
    super('already_linked', 'The service provider is already linked to this business', merchantBusinessId);
  }
}

export class ComplianceVerificationNotFound extends DomainError {
  constructor() {
    super('not_found', 'Compliance verification not found');
  }
}

export class VerificationAlreadyOpen extends Conflict {
  constructor() {
    super('A verification of this type is already open for this business');
  }
}
