import { boolean, enum as enumOf, int, object, string, uuid } from 'zod';
import { canReceivePayments, type PaymentLink } from '#shared/data/payment-link.ts';
import { payerPhonePattern, providerCodes } from '#shared/domain/payment-methods.ts';
import { escrowTermsBody } from '#shared/schemas/escrows.ts';
import { maxAmountCents } from '#shared/schemas/payment-requests.ts';

export const createPaymentLinkBody = object({
  storeId: uuid(),
  title: string().min(10).max(255),
  amountCents: int().min(10_000).max(maxAmountCents),
  currency: string()
    .regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code')
    .optional(),
  allowMultiplePayments: boolean().optional(),
  /** Hold each payment through the link in escrow (platform keys only). */
  escrow: escrowTermsBody.optional(),
});

export type CreatePaymentLinkBody = ReturnType<typeof createPaymentLinkBody.parse>;

export const paymentLinkPathParams = object({ id: uuid() });

export const sandboxLinkPaymentBody = object({
  paymentMethod: enumOf(providerCodes),
  payerPhone: string().regex(payerPhonePattern, 'must be +225 followed by 10 digits'),
});

/** The interface's Payment link, with `canReceivePayments` as it is now. */
export function paymentLinkResponse(link: PaymentLink, baseUrl: string) {
  return {
    id: link.id,
    storeId: link.storeId,
    title: link.title,
    amount: { amount: link.amountCents, currency: link.currency },
    allowMultiplePayments: link.allowMultiplePayments,
    canReceivePayments: canReceivePayments(link),
    link: `${baseUrl}/pl/${link.id}`,
    escrowId: link.escrowId ?? null,
    createdAt: link.createdAt,
  };
}
