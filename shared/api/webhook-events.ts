import {
  enum as enumOf,
  globalRegistry,
  literal,
  object,
  optional,
  type output,
  string,
  type ZodMiniType as ZodType,
} from 'zod/mini';
import { executedAt, money } from '#shared/api/common.ts';
import { escrowEventBody } from '#shared/api/escrows.ts';
import { complianceVerificationSchema, linkRequestEventSchema } from '#shared/api/service-providers.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import type { WebhookEventName } from '#shared/domain/webhook-events.ts';

/** The body of TRANSACTION_COMPLETED: the interface's flat transaction (spec §6). */
export const transactionCompletedEvent = object({
  id: string().register(globalRegistry, { description: 'The transaction’s id: receivers dedupe on it.' }),
  amount: money,
  fees: money,
  status: enumOf(['success', 'error']).register(globalRegistry, {
    description: 'A failed payment is an event too.',
  }),
  counterpartLabel: string().register(globalRegistry, {
    description: 'The payer’s display name; a transfer’s beneficiary.',
  }),
  counterpartIdentifier: string().register(globalRegistry, {
    description: 'The payer’s phone, or the terminal id; a transfer’s beneficiary number, account or store.',
  }),
  paymentMethod: enumOf([...providerCodes, 'bank', 'svc']).register(globalRegistry, {
    description: 'A provider code; a transfer may also go to a bank (`bank`) or another store (`svc`).',
  }),
  transactionType: enumOf(['payment', 'transfer']),
  businessName: string(),
  storeName: string(),
  storeId: string(),
  description: string(),
  executedAt,
  transactionDetails: object({
    id: optional(string()).register(globalRegistry, {
      description: 'The payment request’s (or transfer’s) id.',
    }),
    reference: optional(string()).register(globalRegistry, {
      description: 'The payment request’s (or transfer’s) `reference`.',
    }),
    paymentLinkId: optional(string()).register(globalRegistry, {
      description: 'When paid through a payment link.',
    }),
  }),
}).register(globalRegistry, {
  id: 'TransactionCompletedEvent',
  examples: [
    {
      id: 'bfe37c2f-5b1d-4c1e-9d7a-0d3e6a2f4b55',
      amount: { amount: 1_500_000, currency: 'XOF' },
      fees: { amount: 15_000, currency: 'XOF' },
      status: 'success',
      counterpartLabel: 'Aminata Koné',
      counterpartIdentifier: '+2250700000001',
      paymentMethod: 'wave',
      transactionType: 'payment',
      businessName: 'Boutique Awa',
      storeName: 'Boutique Awa Plateau',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      description: 'Paiement commande-2042',
      executedAt: '2026-11-20 14:08:55',
      transactionDetails: { id: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11', reference: 'commande-2042' },
    },
  ],
});

export type TransactionCompletedEvent = output<typeof transactionCompletedEvent>;

/**
 * The body of REFUND_COMPLETED: the refund's line as a flat transaction body, whose
 * `transactionDetails` name the payment refunded (`id`, `reference`) and the refund.
 */
export const refundCompletedEvent = object({
  ...transactionCompletedEvent.shape,
  id: string().register(globalRegistry, {
    description: 'The refund’s line in the transaction list: receivers dedupe on it.',
  }),
  counterpartLabel: string().register(globalRegistry, { description: 'The payer’s display name.' }),
  counterpartIdentifier: string().register(globalRegistry, {
    description: 'The payer’s number, paid back.',
  }),
  paymentMethod: enumOf(providerCodes).register(globalRegistry, {
    description: 'The provider that collected the payment, and paid it back.',
  }),
  transactionType: literal('refund'),
  transactionDetails: object({
    id: string().register(globalRegistry, { description: 'The payment request refunded.' }),
    reference: string().register(globalRegistry, { description: 'Its `reference`.' }),
    refundId: string(),
    refundReference: string().register(globalRegistry, { description: 'The refund’s `reference`.' }),
  }),
}).register(globalRegistry, {
  id: 'RefundCompletedEvent',
  examples: [
    {
      id: '5d0c2b8e-7f1a-4c3d-9e2b-1a0f3c4d5e6f',
      amount: { amount: 500_000, currency: 'XOF' },
      fees: { amount: 0, currency: 'XOF' },
      status: 'success',
      counterpartLabel: 'Aminata Koné',
      counterpartIdentifier: '+2250700000001',
      paymentMethod: 'wave',
      transactionType: 'refund',
      businessName: 'Boutique Awa',
      storeName: 'Boutique Awa Plateau',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      description: 'Article retourné',
      executedAt: '2026-11-21 09:12:40',
      transactionDetails: {
        id: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11',
        reference: 'commande-2042',
        refundId: '9e8d7c6b-5a49-4382-a716-152433221100',
        refundReference: 'retour-2042-1',
      },
    },
  ],
});

export type RefundCompletedEvent = output<typeof refundCompletedEvent>;

/**
 * The body of COLLECTION_REFUND: a collection the provider reported as paid that completed none of
 * the business's payment requests (the payer paid the same request twice, with two providers), and
 * its refund to the payer. Sent when it is found (`refunding`) and when the refund ends.
 */
export const collectionRefundEvent = object({
  id: string().register(globalRegistry, {
    description: 'The orphan collection’s id: receivers dedupe on `id` and `status`.',
  }),
  status: enumOf(['refunding', 'refunded', 'refund_failed']).register(globalRegistry, {
    description: '`refund_failed`: the provider refused the payout; an operator settles it with the payer.',
  }),
  amount: money,
  paymentMethod: enumOf(providerCodes).register(globalRegistry, {
    description: 'The provider that collected it.',
  }),
  payerPhone: optional(string()),
  storeId: string(),
  transactionDetails: object({
    id: string().register(globalRegistry, { description: 'The payment request the payer meant to pay.' }),
    reference: string().register(globalRegistry, { description: 'Its `reference`.' }),
  }),
  executedAt,
}).register(globalRegistry, {
  id: 'CollectionRefundEvent',
  examples: [
    {
      id: '2b1c7e0a-51f3-5d2e-a4b7-9c0d1e2f3a4b',
      status: 'refunded',
      amount: { amount: 1_500_000, currency: 'XOF' },
      paymentMethod: 'orange',
      payerPhone: '+2250700000001',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      transactionDetails: { id: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11', reference: 'commande-2042' },
      executedAt: '2026-11-20 14:09:31',
    },
  ],
});

export type CollectionRefundEvent = output<typeof collectionRefundEvent>;

export interface WebhookEventContract {
  /** When the service sends it. */
  readonly summary: string;
  /** The JSON body, as stored and sent byte for byte. */
  readonly body: ZodType;
}

/**
 * Every event the service sends, with its body: the reference's `webhooks` section is made from
 * this, and a test fails when an event the code emits is missing. One line per event.
 */
export const webhookEvents = {
  TRANSACTION_COMPLETED: {
    summary:
      'A payment request (redirect, soundbox or payment link) or a transfer (`transactionType: "transfer"`) ' +
      'has completed, in success or in error.',
    body: transactionCompletedEvent,
  },
  ESCROW_HELD: {
    summary:
      'A payment into an escrow succeeded: its amount less the fee is held for the store, sent instead of ' +
      '`TRANSACTION_COMPLETED`. The body has an `event` field.',
    body: escrowEventBody,
  },
  ESCROW_RELEASED: {
    summary: 'A held escrow was released to the store’s operating wallet (by the API or at its hold’s end).',
    body: escrowEventBody,
  },
  ESCROW_REFUNDED: {
    summary: 'A held escrow’s refund payout succeeded: the payer got the whole payment back.',
    body: escrowEventBody,
  },
  SERVICE_PROVIDER_LINK_REQUEST: {
    summary:
      'To the service provider: a link request was made (`pending`), or is now `approved`, `declined` ' +
      'or `expired`. Dedupe on `id` and `status` together.',
    body: linkRequestEventSchema,
  },
  COMPLIANCE_VERIFICATION_COMPLETED: {
    summary: 'To the service provider: a compliance verification it started is `approved` or `rejected`.',
    body: complianceVerificationSchema,
  },
  REFUND_COMPLETED: {
    summary:
      'A refund of a paid payment request ended, in success (the payer was paid back) or in error (its ' +
      'amount is refundable again). Sent only to a subscription whose `events` name it.',
    body: refundCompletedEvent,
  },
  COLLECTION_REFUND: {
    summary:
      'A payer paid one of the business’s payment requests a second time, with another provider; the ' +
      'request kept one payment and the other is given back to the payer: `refunding`, then `refunded` ' +
      '(or `refund_failed`). Never a movement of the business’s balance.',
    body: collectionRefundEvent,
  },
} as const satisfies { readonly [Name in WebhookEventName]?: WebhookEventContract };
