import { randomUUID } from 'node:crypto';
import type { CreatePaymentRequestBody } from '#shared/api/payment-requests.ts';

/**
 * A redirect payment request's body, as a merchant posts it: Wave, 1 500 F CFA, a fresh reference,
 * unless told. `more` adds to its fields or replaces them (an escrow, an expiry, a reference, the
 * whole paymentDetails);
 * `data` adds to the redirect's data (the payer's phone in direct mode, other return addresses).
 * Plain data, for the API over HTTP, the operations in-process and the benches alike.
 */
export function redirectRequestBody(
  storeId: string,
  {
    paymentMethod = 'wave',
    amountCents = 150_000,
    data = {},
    ...more
  }: {
    paymentMethod?: string;
    amountCents?: number;
    data?: Record<string, unknown>;
    /** Any other field, as sent: tests of the API's validation send what it must refuse. */
    [field: string]: unknown;
  } = {},
): CreatePaymentRequestBody {
  return {
    storeId,
    amountCents,
    currency: 'XOF',
    reference: `order-${randomUUID()}`,
    paymentDetails: {
      type: 'redirect',
      data: {
        paymentMethod,
        successUrl: 'https://shop.example/ok',
        errorUrl: 'https://shop.example/ko',
        ...data,
      },
    },
    ...more,
  } as CreatePaymentRequestBody;
}
