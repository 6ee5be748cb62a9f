import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of payment links. */
export type PaymentLinkErrorId = 'payment_link_not_found' | 'E_PAYMENT_LINK_IS_INVALID';

export class PaymentLinkNotFound extends DomainError {
  constructor() {
    super('payment_link_not_found', 'Payment link not found');
  }
}

/** The interface's error for a payment attempt on a link that cannot accept one. */
export class PaymentLinkIsInvalid extends DomainError {
  constructor(message = 'This payment link cannot receive payments') {
    super('E_PAYMENT_LINK_IS_INVALID', message);
  }
}
