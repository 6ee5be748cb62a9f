import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of any request: malformed, invalid, at odds with the state it meets, or repeated. */
export type RequestErrorId =
  | 'bad_request'
  | 'request_too_large'
  | 'not_found'
  | 'validation_error'
  | 'conflict'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_progress'
  | 'too_many_requests';

export class BadRequest extends DomainError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

/** A body over the service's limit (shared/http/request-limits.ts): refused unread. */
export class RequestTooLarge extends DomainError {
  constructor() {
    super('request_too_large', 'The request body is too large');
  }
}

export class RouteNotFound extends DomainError {
  constructor() {
    super('not_found', 'Route not found');
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

/** The request meets a state that refuses it; the base of the service's own races lost. */
export class Conflict extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class IdempotencyKeyReused extends DomainError {
  constructor() {
    super('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body');
  }
}

export class IdempotencyKeyInProgress extends DomainError {
  constructor() {
    super(
      'idempotency_key_in_progress',
      'A request with this Idempotency-Key is still being processed; retry later',
    );
  }
}

/**
 * Over a rate limit before any handler ran: the stage's throttle or the per-key WAF rule on AWS,
 * the local host's per-key limit on a laptop. Clients retry after `Retry-After` seconds.
 */
export class TooManyRequests extends DomainError {
  constructor() {
    super('too_many_requests', 'Too many requests');
  }
}
