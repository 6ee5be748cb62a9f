import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of webhook subscriptions and their deliveries. */
export type WebhookErrorId =
  | 'webhook_subscription_not_found'
  | 'webhook_subscription_exists'
  | 'webhook_delivery_not_found';

/** The interface answers this one with `{"message"}` alone. */
export class WebhookSubscriptionNotFound extends DomainError {
  override readonly messageOnly = true;

  constructor() {
    super('webhook_subscription_not_found', 'Webhook subscription not found');
  }
}

export class WebhookSubscriptionExists extends DomainError {
  constructor() {
    super('webhook_subscription_exists', 'This business already has a webhook subscription');
  }
}

export class WebhookDeliveryNotFound extends DomainError {
  constructor() {
    super('webhook_delivery_not_found', 'Webhook delivery not found');
  }
}
