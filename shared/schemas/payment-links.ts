import { boolean, int, nullable, object, type output, string, uuid } from 'zod';
import { canReceivePayments, type PaymentLink } from '#shared/data/payment-link.ts';
import { instant, money } from '#shared/schemas/common.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';
import { escrowTermsBody } from '#shared/schemas/escrows.ts';
import {
  maxAmountCents,
  payerPhone,
  paymentMethod,
  paymentRequestSchema,
} from '#shared/schemas/payment-requests.ts';

export const createPaymentLinkBody = object({
  storeId: uuid(),
  title: string().min(10).max(255),
  amountCents: int().min(10_000).max(maxAmountCents),
  currency: string()
    .regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code')
    .optional(),
  allowMultiplePayments: boolean()
    .optional()
    .meta({ description: 'False by default: the link is paid once.' }),
  escrow: escrowTermsBody
    .optional()
    .meta({ description: 'Hold each payment through the link in escrow (platform keys only).' }),
}).meta({
  examples: [
    {
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      title: 'Abonnement mensuel salon Awa Coiffure',
      amountCents: 2_500_000,
      currency: 'XOF',
      allowMultiplePayments: true,
    },
  ],
});

export type CreatePaymentLinkBody = ReturnType<typeof createPaymentLinkBody.parse>;

export const paymentLinkPathParams = object({ id: uuid() });

export const sandboxLinkPaymentBody = object({ paymentMethod, payerPhone });

export const paymentLinkSchema = object({
  id: uuid(),
  storeId: uuid(),
  title: string(),
  amount: money,
  allowMultiplePayments: boolean(),
  canReceivePayments: boolean().meta({ description: 'False once a single-use link is paid.' }),
  link: string().meta({ description: 'The page where customers pay.' }),
  escrowId: nullable(uuid()).meta({
    description:
      'The escrow of the payment that closed a single-use escrow link; null before, and for other links.',
  }),
  createdAt: instant,
}).meta({
  id: 'PaymentLink',
  examples: [
    {
      id: '9d2f7c1a-3b4e-4f5a-8c6d-7e8f9a0b1c2d',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      title: 'Abonnement mensuel salon Awa Coiffure',
      amount: { amount: 2_500_000, currency: 'XOF' },
      allowMultiplePayments: true,
      canReceivePayments: true,
      link: 'https://pay.example.ci/pl/9d2f7c1a-3b4e-4f5a-8c6d-7e8f9a0b1c2d',
      escrowId: null,
      createdAt: '2026-11-20T10:00:00.000Z',
    },
  ],
});

export type PaymentLinkResponse = output<typeof paymentLinkSchema>;

/** The interface's Payment link, with `canReceivePayments` as it is now. */
export function paymentLinkResponse(link: PaymentLink, baseUrl: string): PaymentLinkResponse {
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

export const paymentLinkContracts = {
  createPaymentLink: {
    tag: 'Payment links',
    summary: 'Create a payment link',
    description:
      'A page at `link` where customers pay the amount. A single-use link closes once one payment ' +
      'through it completes. With `escrow` (platform keys only; another key gets 403 `forbidden_action`), ' +
      'each payment through it is held in an escrow of its own.',
    body: createPaymentLinkBody,
    response: paymentLinkSchema,
    responseDescription: 'The payment link.',
    idempotent: true,
    errors: ['store_not_found', 'forbidden_action'],
  },
  getPaymentLink: {
    tag: 'Payment links',
    summary: 'Get a payment link',
    params: paymentLinkPathParams,
    response: paymentLinkSchema,
    responseDescription: 'The payment link, `canReceivePayments` as it is now.',
    errors: ['payment_link_not_found'],
  },
  paySandboxPaymentLink: {
    tag: 'Sandbox',
    summary: 'Pay a link as a customer (sandbox)',
    description: 'Plays a customer paying the link; the phone number chooses the outcome.',
    params: paymentLinkPathParams,
    body: sandboxLinkPaymentBody,
    response: paymentRequestSchema,
    responseDescription: 'The payment request the payment made.',
    errors: ['payment_link_not_found', 'E_PAYMENT_LINK_IS_INVALID', 'third_party_payment_provider_error'],
  },
} as const satisfies RouteContracts;
