import {
  array,
  enum as enumOf,
  extend,
  globalRegistry,
  maxLength,
  minLength,
  object,
  optional,
  type output,
  string,
  superRefine,
  uuid,
} from 'zod/mini';
import { instant } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import {
  type NewWebhookSubscription,
  type WebhookSubscription,
  webhookBodyFormats,
} from '#shared/data/webhook-subscription.ts';
import { webhookEventNames } from '#shared/domain/webhook-events.ts';
import { refusedWebhookUrl, webhookUrlPolicy } from '#shared/domain/webhook-url.ts';

export const merchantBusinessQuery = object({ merchantBusinessId: uuid() });

/** Checked against the policy of where the function runs: https and public hosts on a stage. */
const webhookUrl = string().check(
  maxLength(2048),
  superRefine((url, context) => {
    const reason = refusedWebhookUrl(url, webhookUrlPolicy());
    if (reason) {
      context.addIssue({
        code: 'custom',
        params: { rule: 'url' },
        message: `The url field is not allowed (${reason}).`,
      });
    }
  }),
);

const webhookEventName = enumOf(webhookEventNames).register(globalRegistry, { id: 'WebhookEventName' });

export const createWebhookSubscriptionBody = object({
  merchantBusinessId: uuid(),
  url: webhookUrl.clone().register(globalRegistry, { description: '`https://` to a public host.' }),
  name: optional(string().check(minLength(1), maxLength(255))).register(globalRegistry, {
    description: 'The provider’s name by default.',
  }),
  events: optional(array(webhookEventName).check(minLength(1), maxLength(webhookEventNames.length))).register(
    globalRegistry,
    { description: '`["TRANSACTION_COMPLETED"]` by default.' },
  ),
}).register(globalRegistry, {
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
  bodyFormat: optional(enumOf(webhookBodyFormats)).register(globalRegistry, {
    description:
      'How deliveries lay out their body: `flat` (the default) or the `{"event", "data"}` envelope.',
  }),
  createdAt: instant,
  updatedAt: instant,
}).register(globalRegistry, {
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

export const createdWebhookSubscriptionSchema = extend(webhookSubscriptionSchema, {
  secret: string().register(globalRegistry, {
    description: 'Signs every delivery (`Svc-Signature`); shown only here.',
  }),
}).register(globalRegistry, { id: 'CreatedWebhookSubscription' });

/** The interface's Webhook subscription. The secret is not part of it: it is shown once, at creation. */
export const webhookSubscriptionResponse = (
  subscription: WebhookSubscription,
): output<typeof webhookSubscriptionSchema> => ({
  id: subscription.id,
  url: subscription.url,
  name: subscription.name,
  businessId: subscription.businessId,
  events: subscription.events,
  bodyFormat: subscription.bodyFormat ?? 'flat',
  createdAt: subscription.createdAt,
  updatedAt: subscription.updatedAt,
});

export const createdWebhookSubscriptionResponse = (
  subscription: NewWebhookSubscription,
): output<typeof createdWebhookSubscriptionSchema> => ({
  ...webhookSubscriptionResponse(subscription),
  secret: subscription.secret,
});

export const webhookSubscriptionEndpoints = /* @__PURE__ */ endpointsIn('service-providers', {
  listWebhookSubscriptions: {
    method: 'GET',
    path: '/partner_api/service_providers/business_webhook_subscriptions',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Service providers',
    summary: 'List a merchant’s webhook subscription',
    query: merchantBusinessQuery,
    response: array(webhookSubscriptionSchema),
    responseDescription: 'A bare array, empty or of one.',
    errors: ['business_not_found'],
  },
  createWebhookSubscription: {
    method: 'POST',
    path: '/partner_api/service_providers/business_webhook_subscriptions',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:PutItem', 'key:webhookSecrets:encrypt', 'table:UpdateItem'],
    tag: 'Service providers',
    summary: 'Subscribe a merchant to webhooks',
    body: createWebhookSubscriptionBody,
    response: createdWebhookSubscriptionSchema,
    responseDescription: 'The subscription, with its secret (shown only here).',
    errors: ['business_not_found', 'webhook_subscription_exists'],
  },
  deleteWebhookSubscription: {
    method: 'DELETE',
    path: '/partner_api/service_providers/business_webhook_subscriptions/{subscriptionId}',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:DeleteItem', 'table:UpdateItem'],
    tag: 'Service providers',
    summary: 'Delete a merchant’s webhook subscription',
    params: webhookSubscriptionPathParams,
    query: merchantBusinessQuery,
    response: object({
      message: string().register(globalRegistry, { examples: ['Webhook subscription deleted'] }),
    }),
    responseDescription: 'Deleted.',
    errors: ['business_not_found', 'webhook_subscription_not_found'],
  },
});

const webhookBodyFormat = enumOf(webhookBodyFormats).register(globalRegistry, {
  id: 'WebhookBodyFormat',
  description:
    '`flat`: the event’s fields at the top of the body (the default). `envelope`: `{"event": <name>, "data": <the flat body>}`. The signature is over the bytes sent either way.',
});

export const createOwnWebhookSubscriptionBody = object({
  url: webhookUrl.clone().register(globalRegistry, { description: '`https://` to a public host.' }),
  name: optional(string().check(minLength(1), maxLength(255))).register(globalRegistry, {
    description: 'The business’s name by default.',
  }),
  events: optional(array(webhookEventName).check(minLength(1), maxLength(webhookEventNames.length))).register(
    globalRegistry,
    { description: '`["TRANSACTION_COMPLETED"]` by default.' },
  ),
  bodyFormat: optional(webhookBodyFormat),
}).register(globalRegistry, {
  examples: [
    {
      url: 'https://boutique-awa.ci/webhooks/paiements',
      name: 'Boutique Awa',
      events: ['TRANSACTION_COMPLETED', 'REFUND_COMPLETED'],
      bodyFormat: 'flat',
    },
  ],
});

/** The business's own subscription, with its merchant key (or a platform key for the whole business). */
export const ownWebhookSubscriptionEndpoints = /* @__PURE__ */ endpointsIn('webhook-subscriptions', {
  listOwnWebhookSubscriptions: {
    method: 'GET',
    path: '/partner_api/webhook_subscriptions',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Webhooks',
    summary: 'List the business’s webhook subscription',
    response: array(webhookSubscriptionSchema),
    responseDescription: 'A bare array, empty or of one.',
    errors: ['forbidden_action'],
  },
  createOwnWebhookSubscription: {
    method: 'POST',
    path: '/partner_api/webhook_subscriptions',
    caller: 'api_key',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'key:webhookSecrets:encrypt'],
    tag: 'Webhooks',
    summary: 'Subscribe the business to webhooks',
    body: createOwnWebhookSubscriptionBody,
    response: createdWebhookSubscriptionSchema,
    responseDescription: 'The subscription, with its secret (shown only here).',
    errors: ['webhook_subscription_exists', 'forbidden_action'],
  },
  deleteOwnWebhookSubscription: {
    method: 'DELETE',
    path: '/partner_api/webhook_subscriptions/{subscriptionId}',
    caller: 'api_key',
    access: ['table:DeleteItem', 'table:GetItem', 'table:UpdateItem'],
    tag: 'Webhooks',
    summary: 'Delete the business’s webhook subscription',
    params: webhookSubscriptionPathParams,
    response: object({
      message: string().register(globalRegistry, { examples: ['Webhook subscription deleted'] }),
    }),
    responseDescription: 'Deleted.',
    errors: ['webhook_subscription_not_found', 'forbidden_action'],
  },
});
