import { randomBytes, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { decryptWebhookSecret, encryptWebhookSecret } from '#shared/aws/kms.ts';
import { optInWebhookEvents } from '#shared/domain/webhook-events.ts';
import { WebhookSubscriptionExists, WebhookSubscriptionNotFound } from '#shared/errors/webhooks.ts';

/**
 * Webhook subscription: where a business's events are sent, signed with the subscription's secret.
 * A business has at most one.
 *
 * The secret must be usable to sign (HMAC), so it cannot be stored as a one-way hash. It is kept
 * in the table encrypted with the stage's webhook-secrets KMS key (shared/aws/kms.ts), which only
 * the functions that create subscriptions and send webhooks may use; every other reader of the
 * table sees ciphertext. The plain secret is shown once: in the answer that creates the subscription.
 *
 * Key: pk = BIZ#<businessId>, sk = WEBHOOK: one item per business, so "at most one" is a
 * conditional put, and the fan-out of an event finds it with one read.
 * Cost: get 0.5 RCU (the fan-out of every event); create 1 WCU; change or rotate its secret
 * (UpdateItem, the id kept so deliveries under way still go out) 1 WCU; delete 1 WCU.
 */
export interface WebhookSubscription {
  id: string;
  businessId: string;
  url: string;
  name: string;
  /** Event names; empty means every event but the opt-in ones (`optInWebhookEvents`). */
  events: string[];
  /**
   * How a delivery's body is laid out: `flat` (the event's fields at the top, the interface's
   * samples' shape; the default, and what a subscription made without it gets) or `envelope`
   * (`{"event": <name>, "data": <the flat body>}`, which some integrations expect). The signature
   * is over the bytes sent either way.
   */
  bodyFormat?: WebhookBodyFormat | undefined;
  /** The signing secret, KMS-encrypted under a context naming the business (base64). */
  secretCiphertext: string;
  createdAt: string;
  updatedAt: string;
}

export const webhookBodyFormats = ['flat', 'envelope'] as const;
export type WebhookBodyFormat = (typeof webhookBodyFormats)[number];

/** The exact text a delivery carries for an event's body, in the subscription's format. */
export const deliveryBodyOf = (
  subscription: Pick<WebhookSubscription, 'bodyFormat'>,
  eventName: string,
  body: unknown,
): string =>
  subscription.bodyFormat === 'envelope'
    ? JSON.stringify({ event: eventName, data: body })
    : JSON.stringify(body);

/** A subscription just saved, with its secret in clear: to be shown once, never stored so. */
export type NewWebhookSubscription = WebhookSubscription & { secret: string };

export const subscriptionKey = (businessId: string) => ({ pk: `BIZ#${businessId}`, sk: 'WEBHOOK' });

/** 32 random bytes, hex: what receivers put in their HMAC. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('hex')}`;

export async function getSubscription(businessId: string): Promise<WebhookSubscription | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: subscriptionKey(businessId) }),
  );
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, ...subscription } = Item;
  return subscription as WebhookSubscription;
}

/** `replace`: the operator sets a business's endpoint, replacing any; the API creates one at most. */
export async function saveSubscription(
  input: {
    businessId: string;
    url: string;
    name: string;
    events: string[];
    bodyFormat?: WebhookBodyFormat | undefined;
    secret?: string;
  },
  options: { replace: boolean },
): Promise<NewWebhookSubscription> {
  const now = new Date().toISOString();
  const secret = input.secret ?? newWebhookSecret();
  const subscription: WebhookSubscription = {
    id: randomUUID(),
    businessId: input.businessId,
    url: input.url,
    name: input.name,
    events: input.events,
    ...(input.bodyFormat && input.bodyFormat !== 'flat' ? { bodyFormat: input.bodyFormat } : {}),
    secretCiphertext: await encryptWebhookSecret(secret, input.businessId),
    createdAt: now,
    updatedAt: now,
  };
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...subscriptionKey(input.businessId), entity: 'webhook_subscription', ...subscription },
        ...(options.replace ? {} : { ConditionExpression: 'attribute_not_exists(pk)' }),
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new WebhookSubscriptionExists();
    throw error;
  }
  return { ...subscription, secret };
}

export interface SubscriptionChanges {
  url: string;
  name: string;
  events: string[];
  bodyFormat: WebhookBodyFormat;
}

/** Changes where and what the subscription `subscriptionId` of the business sends; 404 if it is not it. */
export async function changeSubscription(
  businessId: string,
  subscriptionId: string,
  changes: SubscriptionChanges,
): Promise<WebhookSubscription> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: subscriptionKey(businessId),
        UpdateExpression:
          'SET #url = :url, #name = :name, events = :events, bodyFormat = :format, updatedAt = :now',
        ConditionExpression: 'id = :id',
        ExpressionAttributeNames: { '#url': 'url', '#name': 'name' },
        ExpressionAttributeValues: {
          ':id': subscriptionId,
          ':url': changes.url,
          ':name': changes.name,
          ':events': changes.events,
          ':format': changes.bodyFormat,
          ':now': new Date().toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const { pk: _pk, sk: _sk, entity: _entity, ...subscription } = Attributes ?? {};
    return subscription as WebhookSubscription;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new WebhookSubscriptionNotFound();
    throw error;
  }
}

/**
 * A new signing secret for the subscription, returned in clear once: deliveries from now on, the
 * retries of earlier ones too, are signed with it.
 */
export async function rotateSubscriptionSecret(businessId: string, subscriptionId: string): Promise<string> {
  const secret = newWebhookSecret();
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: subscriptionKey(businessId),
        UpdateExpression: 'SET secretCiphertext = :secret, updatedAt = :now',
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: {
          ':id': subscriptionId,
          ':secret': await encryptWebhookSecret(secret, businessId),
          ':now': new Date().toISOString(),
        },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new WebhookSubscriptionNotFound();
    throw error;
  }
  return secret;
}

/** The secret to sign with; only a function granted the key's decrypt may call this. */
export const signingSecretOf = (subscription: WebhookSubscription): Promise<string> =>
  decryptWebhookSecret(subscription.secretCiphertext, subscription.businessId);

export async function deleteSubscription(businessId: string, subscriptionId: string): Promise<void> {
  try {
    await documentClient.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: subscriptionKey(businessId),
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':id': subscriptionId },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new WebhookSubscriptionNotFound();
    throw error;
  }
}

/** Whether a subscription gets an event: it names it, or names none and the event is not opt-in only. */
export const subscribedTo = (subscription: WebhookSubscription, eventName: string) =>
  subscription.events.includes(eventName) ||
  (subscription.events.length === 0 && !(optInWebhookEvents as readonly string[]).includes(eventName));
