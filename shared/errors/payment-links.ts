import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of payment links. */
export type PaymentLinkErrorId =
  | 'payment_link_not_found'
  | 'E_PAYMENT_LINK_IS_INVALID'
  | 'payment_link_already_used';

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

/** Switching on a single-use link that was paid: it can never take another payment. */
export class PaymentLinkAlreadyUsed extends DomainError {
  constructor() {
    super(
      'payment_link_already_used',
      'This single-use payment link was paid: it cannot be switched on again',
    );
  }
}
