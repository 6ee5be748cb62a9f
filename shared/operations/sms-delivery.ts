import { queues } from '#shared/catalogue/queues.ts';
import {
  claimForSending,
  failBeforeCarrier,
  getMessage,
  markSent,
  recordCarrierOutcome,
  releaseClaim,
} from '#shared/data/message.ts';
import { carrierOutcomeOf, type SmsDeliveryEvent } from '#shared/domain/sms-events.ts';
import { SmsBeingSent, SmsRefused } from '#shared/errors/messages.ts';
import { logger } from '#shared/logger.ts';
import type { SmsQueueMessage } from '#shared/operations/messages.ts';
import { smsGateway } from '#shared/sms/gateway.ts';

/** The redrive policy parks a message after this many receives: the last attempt is this one. */
export const maxSendAttempts = queues.sms.maxReceiveCount;

/**
 * One attempt to hand a message to the gateway, the `attempt`-th. A message that is no longer
 * pending (a duplicate queue message) is left alone. The attempt first claims the message, so two
 * copies of its queue message (a redelivery, the stream's rescue copy) never both reach the
 * gateway: a copy that finds a live claim is thrown back to the queue, or, on its last attempt,
 * dropped (the claim's holder settles the message; its own queue message comes back if it died).
 * A refusal before the carrier, or the last attempt failing, fails the message and gives its
 * segments back, once; any other failure releases the claim and is thrown so the queue brings the
 * message back.
 */
export async function sendQueuedSms(queued: SmsQueueMessage, attempt: number): Promise<void> {
  const message = await getMessage(queued.businessId, queued.messageId, true);
  if (!message) {
    logger.warn('sms queue message for an unknown message', { ...queued });
    return;
  }
  if (message.status !== 'pending') return;
  const claim = await claimForSending(message);
  if (!claim) {
    const now = await getMessage(queued.businessId, queued.messageId, true);
    if (now?.status !== 'pending' || attempt >= maxSendAttempts) return;
    throw new SmsBeingSent(message.id);
  }
  try {
    const { providerMessageId } = await smsGateway().send({
      businessId: message.businessId,
      messageId: message.id,
      to: message.to,
      body: message.body,
    });
    await markSent(message, providerMessageId);
  } catch (error) {
    if (error instanceof SmsRefused) {
      if (await failBeforeCarrier(message, error.reason))
        logger.info('sms message failed', {
          messageId: message.id,
          failedReason: error.reason,
          refunded: message.segments,
        });
      return;
    }
    if (attempt >= maxSendAttempts) {
      if (await failBeforeCarrier(message, 'provider_unavailable'))
        logger.info('sms message failed', {
          messageId: message.id,
          failedReason: 'provider_unavailable',
          refunded: message.segments,
        });
      return;
    }
    await releaseClaim(message, claim).catch((releaseError: unknown) =>
      // The lease lapses on its own; the retry then finds the message free.
      logger.warn('sms claim not released', { messageId: message.id, error: releaseError as Error }),
    );
    throw error;
  }
}

/** Moves a message as its delivery event says; events about unknown messages are logged and dropped. */
export async function applySmsDeliveryEvent(event: SmsDeliveryEvent): Promise<void> {
  const outcome = carrierOutcomeOf(event);
  if (!outcome) return;
  const businessId = event.context?.businessId;
  const messageId = event.context?.messageId;
  if (!businessId || !messageId) {
    logger.warn('sms delivery event without our context', {
      eventType: event.eventType,
      providerMessageId: event.messageId,
    });
    return;
  }
  const changed = await recordCarrierOutcome({ businessId, id: messageId }, outcome);
  if (changed && outcome.status === 'failed')
    logger.info('sms message failed', { messageId, failedReason: outcome.failedReason });
}

/**
 * A queue message of the events queue: the event itself (an SNS subscription with raw message
 * delivery, or the sandbox gateway), or an SNS notification wrapping it.
 */
export function parseSmsEventMessage(body: string): SmsDeliveryEvent {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (parsed.Type === 'Notification' && typeof parsed.Message === 'string')
    return JSON.parse(parsed.Message) as SmsDeliveryEvent;
  return parsed as unknown as SmsDeliveryEvent;
}
