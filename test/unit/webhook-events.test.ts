import { describe, expect, it } from 'vitest';
import { subscribedTo, type WebhookSubscription } from '#shared/data/webhook-subscription.ts';
import { optInWebhookEvents, webhookEventNames } from '#shared/domain/webhook-events.ts';

const subscription = (events: string[]): WebhookSubscription => ({
  id: 's',
  businessId: 'b',
  url: 'https://shop.example/hooks',
  name: 'n',
  events,
  secretCiphertext: '',
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
});

describe('which events a subscription gets', () => {
  it('a subscription naming events gets those, opt-in ones included', () => {
    const named = subscription(['TRANSACTION_COMPLETED', 'REFUND_COMPLETED']);
    expect(subscribedTo(named, 'REFUND_COMPLETED')).toBe(true);
    expect(subscribedTo(named, 'TRANSACTION_COMPLETED')).toBe(true);
    expect(subscribedTo(named, 'ESCROW_HELD')).toBe(false);
  });

  it('a subscription naming none gets every event but REFUND_COMPLETED, which a payments receiver would take for a payment', () => {
    const everything = subscription([]);
    expect(optInWebhookEvents).toEqual(['REFUND_COMPLETED']);
    for (const name of webhookEventNames)
      expect(subscribedTo(everything, name), name).toBe(!optInWebhookEvents.includes(name));
  });
});
