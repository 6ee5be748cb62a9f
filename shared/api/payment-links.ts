import {
  boolean,
  enum as enumOf,
  globalRegistry,
  maxLength,
  minLength,
  nullable,
  object,
  optional,
  type output,
  pipe,
  regex,
  string,
  transform,
  uuid,
} from 'zod/mini';
import { instant, money, pageOf, pagingQuery, wholeFrancCents } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { escrowTermsBody } from '#shared/api/escrows.ts';
import { readsTable } from '#shared/catalogue/access.ts';
import { canReceivePayments, type PaymentLink } from '#shared/data/payment-link.ts';

export const createPaymentLinkBody = object({
  storeId: uuid(),
  title: string().check(minLength(10), maxLength(255)),
  amountCents: wholeFrancCents(10_000),
  currency: optional(string().check(regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code'))),
  allowMultiplePayments: optional(boolean()).register(globalRegistry, {
    description: 'False by default: the link is paid once.',
  }),
  escrow: optional(escrowTermsBody).register(globalRegistry, {
    description: 'Hold each payment through the link in escrow (platform keys only).',
  }),
}).register(globalRegistry, {
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

export const paymentLinkSchema = object({
  id: uuid(),
  storeId: uuid(),
  title: string(),
  amount: money,
  allowMultiplePayments: boolean(),
  active: boolean().register(globalRegistry, {
    description: 'False while the merchant has switched the link off (`/deactivate`); true otherwise.',
  }),
  canReceivePayments: boolean().register(globalRegistry, {
    description: 'False once a single-use link is paid, and while the link is switched off.',
  }),
  link: string().register(globalRegistry, { description: 'The page where customers pay.' }),
  escrowId: nullable(uuid()).register(globalRegistry, {
    description:
      'The escrow of the payment that closed a single-use escrow link; null before, and for other links.',
  }),
  createdAt: instant,
}).register(globalRegistry, {
  id: 'PaymentLink',
  examples: [
    {
      id: '9d2f7c1a-3b4e-4f5a-8c6d-7e8f9a0b1c2d',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      title: 'Abonnement mensuel salon Awa Coiffure',
      amount: { amount: 2_500_000, currency: 'XOF' },
      allowMultiplePayments: true,
      active: true,
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
    active: link.active,
    canReceivePayments: canReceivePayments(link),
    link: `${baseUrl}/pl/${link.id}`,
    escrowId: link.escrowId ?? null,
    createdAt: link.createdAt,
  };
}

export const listPaymentLinksQuery = object({
  storeId: optional(uuid()).register(globalRegistry, {
    description: 'One store of the business; all of them by default.',
  }),
  active: optional(
    pipe(
      enumOf(['true', 'false']),
      transform((value) => value === 'true'),
    ),
  ).register(globalRegistry, { description: '`true`: the links switched on; `false`: those switched off.' }),
  ...pagingQuery,
});

export type ListPaymentLinksQuery = ReturnType<typeof listPaymentLinksQuery.parse>;

export const paymentLinkListSchema = object({
  ...pageOf(paymentLinkSchema),
}).register(globalRegistry, { id: 'PaymentLinkList' });

export const paymentLinkEndpoints = /* @__PURE__ */ endpointsIn('payment-links', {
  createPaymentLink: {
    method: 'POST',
    path: '/partner_api/payment_links',
    caller: 'api_key',
    access: ['table:GetItem', 'table:PutItem', 'table:ConditionCheckItem', 'table:UpdateItem'],
    tag: 'Payment links',
    summary: 'Create a payment link',
    body: createPaymentLinkBody,
    response: paymentLinkSchema,
    responseDescription: 'The payment link.',
    idempotent: true,
    errors: ['store_not_found', 'forbidden_action'],
  },
  getPaymentLink: {
    method: 'GET',
    path: '/partner_api/payment_links/{id}',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Payment links',
    summary: 'Get a payment link',
    params: paymentLinkPathParams,
    response: paymentLinkSchema,
    responseDescription: 'The payment link, `canReceivePayments` as it is now.',
    errors: ['payment_link_not_found'],
  },
  listPaymentLinks: {
    method: 'GET',
    path: '/partner_api/payment_links',
    caller: 'api_key',
    access: [...readsTable, 'table:UpdateItem'],
    tag: 'Payment links',
    summary: 'List the payment links',
    query: listPaymentLinksQuery,
    response: paymentLinkListSchema,
    responseDescription: 'One page of the links, newest first.',
    errors: ['store_not_found'],
  },
  deactivatePaymentLink: {
    method: 'POST',
    path: '/partner_api/payment_links/{id}/deactivate',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Payment links',
    summary: 'Switch a payment link off',
    params: paymentLinkPathParams,
    response: paymentLinkSchema,
    responseDescription: 'The link, `active` and `canReceivePayments` false.',
    errors: ['payment_link_not_found'],
  },
  activatePaymentLink: {
    method: 'POST',
    path: '/partner_api/payment_links/{id}/activate',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Payment links',
    summary: 'Switch a payment link on again',
    params: paymentLinkPathParams,
    response: paymentLinkSchema,
    responseDescription: 'The link, `active` true.',
    errors: ['payment_link_not_found', 'payment_link_already_used'],
  },
});
