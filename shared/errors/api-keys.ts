import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of a business managing its own API keys (the dashboard). */
export type ApiKeyErrorId = 'api_key_not_found' | 'api_key_limit_reached';

export class ApiKeyNotFound extends DomainError {
  constructor() {
    super('api_key_not_found', 'API key not found');
  }
}

export class ApiKeyLimitReached extends DomainError {
  constructor(limit: number) {
    super('api_key_limit_reached', `A business has at most ${limit} active API keys: revoke one first`);
  }
}
