import { boolean, enum as enumOf, int, object, string, uuid } from 'zod';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { payerPhonePattern, providerCodes } from '#shared/domain/payment-methods.ts';
import { isFollowableReturnUrl } from '#shared/domain/return-urls.ts';
import { escrowTermsBody } from '#shared/schemas/escrows.ts';

/**
 * Return URLs may be web addresses or app deep links (`myapp://paid?reference=x`), with the
 * client's own query string: any absolute URI with a scheme.
 */
const returnUrl = string()
  .max(2048)
  .regex(/^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/, 'must be an absolute URL or app link (scheme:...)')
  .refine(isFollowableReturnUrl, {
    message: 'The URL scheme is not allowed: javascript, vbscript, data, file and blob URLs are refused.',
    params: { rule: 'url' },
  });

/** Far above any ceiling, and far below 2^53: amounts stay exact in every computation. */
export const maxAmountCents = 1_000_000_000_000;

export const createPaymentRequestBody = object({
  storeId: uuid(),
  amountCents: int().min(100).max(maxAmountCents),
  currency: string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code'),
  reference: string().min(1).max(100),
  /** What the payer pays for, shown on the hosted page and carried into the transaction. */
  description: string().trim().min(1).max(255).optional(),
  /** Hold the payment in escrow (platform keys only). */
  escrow: escrowTermsBody.optional(),
  paymentDetails: object({
    type: enumOf(['redirect', 'soundbox']),
    data: object({
      paymentMethod: enumOf(providerCodes),
      successUrl: returnUrl.optional(),
      errorUrl: returnUrl.optional(),
      deviceId: string().min(1).max(128).optional(),
      forceProviderDirect: boolean().optional(),
      payerPhone: string().regex(payerPhonePattern, 'must be +225 followed by 10 digits').optional(),
    }),
  }),
}).superRefine((body, context) => {
  const { type, data } = body.paymentDetails;
  // The payer of a redirect is sent back to the merchant; a soundbox payer stays at the till.
  if (type === 'redirect') {
    for (const field of ['successUrl', 'errorUrl'] as const) {
      if (data[field] !== undefined) continue;
      context.addIssue({
        code: 'custom',
        path: ['paymentDetails', 'data', field],
        params: { rule: 'required' },
        message: `The paymentDetails.data.${field} field is required when paymentDetails.type is redirect.`,
      });
    }
  }
  if (type === 'soundbox' && data.deviceId === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['paymentDetails', 'data', 'deviceId'],
      params: { rule: 'required' },
      message: 'The paymentDetails.data.deviceId field is required when paymentDetails.type is soundbox.',
    });
  }
  if (data.forceProviderDirect === true && data.payerPhone === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['paymentDetails', 'data', 'payerPhone'],
      params: { rule: 'required' },
      message:
        'The paymentDetails.data.payerPhone field is required when paymentDetails.data.forceProviderDirect is true.',
    });
  }
});

export type CreatePaymentRequestBody = ReturnType<typeof createPaymentRequestBody.parse>;

export const paymentRequestPathParams = object({ id: uuid() });

/** The payment request as integrations read it: create answer and GET answer alike. */
export function paymentRequestResponse(request: PaymentRequest) {
  return {
    id: request.id,
    storeId: request.storeId,
    reference: request.reference,
    ...(request.description ? { description: request.description } : {}),
    type: request.type,
    paymentMethod: request.paymentMethod,
    status: request.status,
    errorReason: request.errorReason,
    transaction: request.transaction,
    redirectUrl: request.redirectUrl,
    amount: { amount: request.amountCents, currency: request.currency },
    ...(request.deviceId ? { deviceId: request.deviceId } : {}),
    ...(request.paymentLinkId ? { paymentLinkId: request.paymentLinkId } : {}),
    ...(request.escrow ? { escrowId: request.escrow.id } : {}),
    createdAt: request.createdAt,
  };
}
