import { array, enum as enumOf, object, type output, string, uuid } from 'zod';
import type { NewWebhookSubscription, WebhookSubscription } from '#shared/data/webhook-subscription.ts';
import { webhookEventNames } from '#shared/domain/webhook-events.ts';
import { refusedWebhookUrl, webhookUrlPolicy } from '#shared/domain/webhook-url.ts';
import { instant } from '#shared/schemas/common.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';

export const merchantBusinessQuery = object({ merchantBusinessId: uuid() });

/** Checked against the policy of where the function runs: https and public hosts on a stage. */
const webhookUrl = string()
  .max(2048)
  .superRefine((url, context) => {
    const reason = refusedWebhookUrl(url, webhookUrlPolicy());
    if (reason) {
      context.addIssue({
        code: 'custom',
        params: { rule: 'url' },
        message: `The url field is not allowed (${reason}).`,
      });
    }
  });

const webhookEventName = enumOf(webhookEventNames).meta({ id: 'WebhookEventName' });

export const createWebhookSubscriptionBody = object({
  merchantBusinessId: uuid(),
  url: webhookUrl.meta({ description: '`https://` to a public host.' }),
  name: string().min(1).max(255).optional().meta({ description: 'The provider’s name by default.' }),
  events: array(webhookEventName)
    .min(1)
    .max(webhookEventNames.length)
    .optional()
    .meta({ description: '`["TRANSACTION_COMPLETED"]` by default.' }),
}).meta({
  examples: [
    {
      merchantBusinessId: '0b6f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      url: 'https://boutique-awa.ci/webhooks/paiements',
      name: 'Boutique Awa',
      events: ['TRANSACTION_COMPLETED'],
    },
  ],
});

export type CreateWebhookSubscriptionBody = ReturnType<typeof createWebhookSubscriptionBody.parse>;

export const webhookSubscriptionPathParams = object({ subscriptionId: uuid() });

export const webhookSubscriptionSchema = object({
  id: uuid(),
  url: string(),
  name: string(),
  businessId: uuid(),
  events: array(string()),
  createdAt: instant,
  updatedAt: instant,
}).meta({
  id: 'WebhookSubscription',
  examples: [
    {
      id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
      url: 'https://boutique-awa.ci/webhooks/paiements',
      name: 'Boutique Awa',
      businessId: '0b6f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      events: ['TRANSACTION_COMPLETED'],
      createdAt: '2026-11-20T09:00:00.000Z',
      updatedAt: '2026-11-20T09:00:00.000Z',
    },
  ],
});

export const createdWebhookSubscriptionSchema = webhookSubscriptionSchema
  .extend({
    secret: string().meta({ description: 'Signs every delivery (`Svc-Signature`); shown only here.' }),
  })
  .meta({ id: 'CreatedWebhookSubscription' });

/** The interface's Webhook subscription. The secret is not part of it: it is shown once, at creation. */
export const webhookSubscriptionResponse = (
  subscription: WebhookSubscription,
): output<typeof webhookSubscriptionSchema> => ({
  id: subscription.id,
  url: subscription.url,
  name: subscription.name,
  businessId: subscription.businessId,
  events: subscription.events,
  createdAt: subscription.createdAt,
  updatedAt: subscription.updatedAt,
});

export const createdWebhookSubscriptionResponse = (
  subscription: NewWebhookSubscription,
): output<typeof createdWebhookSubscriptionSchema> => ({
  ...webhookSubscriptionResponse(subscription),
  secret: subscription.secret,
});

export const forServiceProviders =
  'Any key of a service provider; another key is answered 403 `forbidden_action`. A merchant not linked ' +
  'to the caller is 404 `business_not_found`, as an unknown id is.';

export const webhookSubscriptionContracts = {
  listWebhookSubscriptions: {
    tag: 'Service providers',
    summary: 'List a merchant’s webhook subscription',
    description: forServiceProviders,
    query: merchantBusinessQuery,
    response: array(webhookSubscriptionSchema),
    responseDescription: 'A bare array, empty or of one.',
    errors: ['business_not_found'],
  },
  createWebhookSubscription: {
    tag: 'Service providers',
    summary: 'Subscribe a merchant to webhooks',
    description: `${forServiceProviders} A business has at most one subscription: a second create answers 409.`,
    body: createWebhookSubscriptionBody,
    response: createdWebhookSubscriptionSchema,
    responseDescription: 'The subscription, with its secret (shown only here).',
    errors: ['business_not_found', 'webhook_subscription_exists'],
  },
  deleteWebhookSubscription: {
    tag: 'Service providers',
    summary: 'Delete a merchant’s webhook subscription',
    description: `${forServiceProviders} An unknown subscription answers 404 \`{"message": "Webhook subscription not found"}\`.`,
    params: webhookSubscriptionPathParams,
    query: merchantBusinessQuery,
    response: object({ message: string().meta({ examples: ['Webhook subscription deleted'] }) }),
    responseDescription: 'Deleted.',
    errors: ['business_not_found', 'webhook_subscription_not_found'],
  },
} as const satisfies RouteContracts;
