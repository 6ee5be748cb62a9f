import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of the payment providers the service calls (the sandbox's checkout included). */
export type ProviderErrorId = 'third_party_payment_provider_error' | 'provider_unavailable';

/** The provider refused the collection at once (a phone not on that provider, say). */
export class ProviderRefused extends DomainError {
  constructor(message = 'The payment provider refused the payment') {
    super('third_party_payment_provider_error', message);
  }
}

/**
 * The provider could not be reached or answered with a server error after the retries: nothing is
 * known to have happened there. Unlike ProviderRefused, the payment or transfer is not failed for
 * it: the payer may try again, and a payout stays pending until the status query answers.
 */
export class ProviderUnavailable extends DomainError {
  constructor(message = 'The payment provider is unavailable; try again later') {
    super('third_party_payment_provider_error', message);
  }
}

/**
 * The operator is down for this country right now (pawaPay closed it, or the direct adapter's
 * calls keep failing): refused before anything is written, with when to try again. The payer can
 * use another operator of the country at once.
 */
export class OperatorUnavailable extends DomainError {
  constructor(
    readonly paymentMethod: string,
    readonly retryAfterSeconds: number,
    country?: string,
  ) {
    super(
      'provider_unavailable',
      `${paymentMethod} is unavailable${country ? ` in ${country}` : ''} for now: nothing was done; retry after ${retryAfterSeconds} seconds or use another payment method`,
      { paymentMethod, ...(country ? { country } : {}), retryAfterSeconds },
    );
  }
}

export class SandboxCollectionNotFound extends DomainError {
  constructor() {
    super('not_found', 'Sandbox collection not found');
  }
}
