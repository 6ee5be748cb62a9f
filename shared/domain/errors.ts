/**
 * Errors of the domain. Each carries the stable `id` integrations read; the HTTP layer maps ids to
 * statuses in one table (`shared/http/error-status.ts`), so no rule here knows about HTTP.
 */
export class DomainError extends Error {
  /**
   * The interface answers a few errors with `{"message"}` alone, and integrations compare that
   * body: such an error sets this, and the HTTP layer leaves out `id` and `extras`.
   */
  readonly messageOnly: boolean = false;

  constructor(
    readonly id: ErrorId,
    message: string,
    readonly extras: unknown = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export type ErrorId =
  | 'bad_request'
  | 'unauthorized'
  | 'business_not_enabled_for_api_access'
  | 'forbidden_action'
  | 'not_found'
  | 'store_not_found'
  | 'device_not_found'
  | 'business_not_found'
  | 'validation_error'
  | 'conflict'
  | 'insufficient_balance'
  | 'payment_request_not_found'
  | 'payment_request_exists_with_reference'
  | 'third_party_payment_provider_error'
  | 'collection_ceiling_exceeded'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_progress'
  | 'payment_link_not_found'
  | 'E_PAYMENT_LINK_IS_INVALID'
  | 'webhook_subscription_not_found'
  | 'webhook_subscription_exists'
  | 'already_linked'
  | 'webhook_delivery_not_found'
  | 'contact_not_found'
  | 'transfer_not_found'
  | 'transfer_exists_with_reference'
  | 'message_not_found'
  | 'message_exists_with_reference'
  | 'insufficient_sms_balance'
  | 'escrow_not_found'
  | 'escrow_already_released'
  | 'escrow_already_refunded'
  | 'escrow_not_held'
  | 'user_already_exists'
  | 'user_not_found'
  | 'no_owned_business'
  | 'business_link_request_not_found'
  | 'internal_error';

export class BadRequest extends DomainError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

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

export class RouteNotFound extends DomainError {
  constructor() {
    super('not_found', 'Route not found');
  }
}

export class StoreNotFound extends DomainError {
  constructor() {
    super('store_not_found', 'Store not found');
  }
}

export class DeviceNotFound extends DomainError {
  constructor() {
    super('device_not_found', 'Device not found');
  }
}

export class BusinessNotFound extends DomainError {
  constructor(message = 'Business not found') {
    super('business_not_found', message);
  }
}

export interface FieldError {
  field: string;
  rule: string;
  message: string;
}

export class ValidationFailed extends DomainError {
  constructor(readonly errors: FieldError[]) {
    super('validation_error', 'The given data was invalid', { errors });
  }
}

export class Conflict extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

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
