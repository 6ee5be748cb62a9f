import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMessage,
  creditSms,
  failBeforeCarrier,
  getMessage,
  getOrCreateAccount,
  type Message,
  markSent,
  recordCarrierOutcome,
} from '#shared/data/message.ts';
import { InsufficientSmsBalance, MessageExistsWithReference } from '#shared/errors/messages.ts';
import { pendingSms } from '#test/support/fixtures.ts';

const newBusiness = () => randomUUID();

const balance = async (businessId: string) => (await getOrCreateAccount(businessId)).smsBalance;

describe('the SMS balance', () => {
  it('refuses a message on a business that never had an account, recording nothing', async () => {
    const businessId = newBusiness();
    const message = pendingSms(businessId, 1);
    await expect(createMessage(message)).rejects.toBeInstanceOf(InsufficientSmsBalance);
    expect(await getMessage(businessId, message.id, true)).toBeUndefined();
    expect(await balance(businessId)).toBe(0);
  });

  it('accepts exactly the messages that fit when 100 race for 10 segments', async () => {
    const businessId = newBusiness();
    await creditSms(businessId, 10, 'topup');
    const messages = Array.from({ length: 100 }, () =>
      pendingSms(businessId, 1 + Math.floor(Math.random() * 3)),
    );
    const results = await Promise.allSettled(messages.map((message) => createMessage(message)));
    const accepted = messages.filter((_, index) => results[index]?.status === 'fulfilled');
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(InsufficientSmsBalance);
    const spent = accepted.reduce((sum, message) => sum + message.segments, 0);
    expect(spent).toBeLessThanOrEqual(10);
    const left = await balance(businessId);
    expect(left).toBe(10 - spent);
    // The balance only fell during the race: each refused message was bigger than what is left.
    const refused = messages.filter((_, index) => results[index]?.status === 'rejected');
    for (const message of refused) expect(message.segments).toBeGreaterThan(left);
    // What was refused left no trace; what was accepted is there.
    for (const [index, message] of messages.entries()) {
      const stored = await getMessage(businessId, message.id, true);
      expect(stored !== undefined).toBe(results[index]?.status === 'fulfilled');
    }
  });

  it('gives the segments back once, however many failures race', async () => {
    const businessId = newBusiness();
    await creditSms(businessId, 5, 'topup');
    const message = pendingSms(businessId, 3);
    await createMessage(message);
    expect(await balance(businessId)).toBe(2);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => failBeforeCarrier(message, 'invalid_number')),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await balance(businessId)).toBe(5);
    expect(await getMessage(businessId, message.id, true)).toMatchObject({
      status: 'failed',
      failedReason: 'invalid_number',
    });
  });

  it('gives nothing back for a message the carrier already has', async () => {
    const businessId = newBusiness();
    await creditSms(businessId, 2, 'topup');
    const message = pendingSms(businessId, 2);
    await createMessage(message);
    expect(await markSent(message, 'provider-1')).toBe(true);
    expect(await failBeforeCarrier(message, 'provider_unavailable')).toBe(false);
    expect(await balance(businessId)).toBe(0);
  });

  it('counts a credit once per entry id', async () => {
    const businessId = newBusiness();
    expect(await creditSms(businessId, 7, 'entry-a')).toBe(true);
    expect(await creditSms(businessId, 7, 'entry-a')).toBe(false);
    expect(await creditSms(businessId, 3, 'entry-b')).toBe(true);
    expect(await balance(businessId)).toBe(10);
  });

  it('equals credits less the segments of charged messages not given back, and never goes below zero (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('credit' as const), segments: fc.integer({ min: 1, max: 5 }) }),
            fc.record({ kind: fc.constant('send' as const), segments: fc.integer({ min: 1, max: 6 }) }),
            fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
            fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat() }),
          ),
          { maxLength: 25 },
        ),
        async (steps) => {
          const businessId = newBusiness();
          const sent: Message[] = [];
          let credits = 0;
          for (const step of steps) {
            if (step.kind === 'credit') {
              await creditSms(businessId, step.segments, randomUUID());
              credits += step.segments;
            } else if (step.kind === 'send') {
              const message = pendingSms(businessId, step.segments);
              try {
                await createMessage(message);
                sent.push(message);
              } catch (error) {
                expect(error).toBeInstanceOf(InsufficientSmsBalance);
              }
            } else if (sent.length > 0) {
              const message = sent[step.pick % sent.length] as Message;
              if (step.kind === 'refund') await failBeforeCarrier(message, 'invalid_number');
              else await recordCarrierOutcome(message, { status: 'delivered' });
            }
            const stored = await Promise.all(sent.map((message) => getMessage(businessId, message.id, true)));
            const held = stored.reduce(
              (sum, message) => sum + (message?.refundedAt ? 0 : (message?.segments ?? 0)),
              0,
            );
            const now = await balance(businessId);
            expect(now).toBeGreaterThanOrEqual(0);
            expect(now).toBe(credits - held);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('a message', () => {
  it('keeps its reference unique per business', async () => {
    const businessId = newBusiness();
    await creditSms(businessId, 3, 'topup');
    const first = pendingSms(businessId, 1, { reference: 'order-1' });
    await createMessage(first);
    await expect(createMessage(pendingSms(businessId, 1, { reference: 'order-1' }))).rejects.toBeInstanceOf(
      MessageExistsWithReference,
    );
    expect(await balance(businessId)).toBe(2);
    // Another business may use the same reference.
    const other = newBusiness();
    await creditSms(other, 1, 'topup');
    await createMessage(pendingSms(other, 1, { reference: 'order-1' }));
  });

  it('moves pending → sent → delivered, and a final status never changes again', async () => {
    const businessId = newBusiness();
    await creditSms(businessId, 1, 'topup');
    const message = pendingSms(businessId, 1);
    await createMessage(message);
    expect(await markSent(message, 'provider-1')).toBe(true);
    expect(await markSent(message, 'provider-2')).toBe(false);
    expect(await recordCarrierOutcome(message, { status: 'delivered' })).toBe(true);
    expect(await recordCarrierOutcome(message, { status: 'failed', failedReason: 'expired' })).toBe(false);
    expect(await getMessage(businessId, message.id, true)).toMatchObject({
      status: 'delivered',
      failedReason: null,
      providerMessageId: 'provider-1',
    });
  });

  it('is delivered even when the event outruns the record of its sending', async () => {
    const businessId = newBusiness();
    await creditSms(businessId, 1, 'topup');
    const message = pendingSms(businessId, 1);
    await createMessage(message);
    expect(await recordCarrierOutcome(message, { status: 'delivered' })).toBe(true);
    expect(await markSent(message, 'provider-1')).toBe(false);
    expect((await getMessage(businessId, message.id, true))?.status).toBe('delivered');
  });

  it('of the platform charges nobody', async () => {
    const message = pendingSms('platform', 2, { charged: false });
    await createMessage(message);
    expect((await getMessage('platform', message.id, true))?.status).toBe('pending');
    expect(await failBeforeCarrier(message, 'invalid_number')).toBe(true);
  });
});
