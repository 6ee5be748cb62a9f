/**
 * Delivery events, in the shape AWS End User Messaging SMS publishes them to a configuration set's
 * event destination (the sandbox gateway sends the same shape). `context` is what the sender put
 * in the message's `Context`, which is how an event finds its message.
 */
export interface SmsDeliveryEvent {
  eventType: string;
  eventTimestamp?: number;
  isFinal?: boolean;
  messageId: string;
  destinationPhoneNumber?: string;
  messageStatus?: string;
  messageStatusDescription?: string;
  context?: Record<string, string>;
}

export type CarrierOutcome =
  | { status: 'sent' }
  | { status: 'delivered' }
  | { status: 'failed'; failedReason: string };

/** Why the carrier failed a message, by event type; no refund: the carrier had it. */
const failures: Record<string, string> = {
  TEXT_CARRIER_BLOCKED: 'carrier_rejected',
  TEXT_BLOCKED: 'blocked',
  TEXT_PROTECT_BLOCKED: 'blocked',
  TEXT_SPAM: 'spam',
  TEXT_TTL_EXPIRED: 'expired',
  TEXT_INVALID: 'invalid_number',
  TEXT_INVALID_MESSAGE: 'invalid_message',
  TEXT_UNREACHABLE: 'unreachable',
  TEXT_CARRIER_UNREACHABLE: 'carrier_unreachable',
  TEXT_UNKNOWN: 'unknown',
};

/**
 * What an event means for the message's status, or undefined when it changes nothing (queued,
 * pending, or not about SMS). Some countries report only TEXT_SUCCESSFUL, as final: that is as
 * far as anyone will know, and counts as delivered.
 */
export function carrierOutcomeOf(
  event: Pick<SmsDeliveryEvent, 'eventType' | 'isFinal'>,
): CarrierOutcome | undefined {
  const { eventType } = event;
  if (eventType === 'TEXT_DELIVERED') return { status: 'delivered' };
  if (eventType === 'TEXT_SUCCESSFUL') return event.isFinal ? { status: 'delivered' } : { status: 'sent' };
  const reason = failures[eventType];
  if (reason) return { status: 'failed', failedReason: reason };
  if (
    eventType.startsWith('TEXT_') &&
    event.isFinal &&
    eventType !== 'TEXT_QUEUED' &&
    eventType !== 'TEXT_PENDING'
  )
    return { status: 'failed', failedReason: 'unknown' };
  return undefined;
}
