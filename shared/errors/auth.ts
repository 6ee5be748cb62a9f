import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of the caller's key: missing, not allowed in, or not allowed this action. */
export type AuthErrorId = 'unauthorized' | 'business_not_enabled_for_api_access' | 'forbidden_action';

export class Unauthorized extends DomainError {
  constructor() {
    super('unauthorized', 'Invalid or missing API key');
  }
}

export class BusinessNotEnabledForApiAccess extends DomainError {
  constructor() {
    super('business_not_enabled_for_api_access', 'The business account is not enabled for API access');
  }
}

export class ForbiddenAction extends DomainError {
  constructor(message = 'This API key is not allowed to perform this action') {
    super('forbidden_action', message);
  }
}
