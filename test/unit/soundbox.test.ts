import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeEndpointCommand,
  IoTClient,
} from '@aws-sdk/client-iot';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { provisionIotThing } from '#infra/admin-device.ts';
import { readRegistryFile, stageEntry } from '#infra/stage-registry.ts';
import {
  announcementMessage,
  displayLifetimeMs,
  displayMessage,
  isOnline,
  parseSoundboxTopic,
  soundboxTopics,
  spokenAmount,
} from '#shared/domain/soundbox.ts';
import { presenceEventOf } from '#shared/operations/device-presence.ts';

describe('what a soundbox says', () => {
  it('reads amounts as francs, thousands grouped with plain spaces', () => {
    expect(spokenAmount(150_000, 'XOF', 'fr')).toBe('1 500 francs CFA');
    expect(spokenAmount(150_000, 'XOF', 'en')).toBe('1,500 CFA francs');
    expect(spokenAmount(100, 'XOF', 'fr')).toBe('1 franc CFA');
    expect(spokenAmount(100, 'XOF', 'en')).toBe('1 CFA franc');
    expect(spokenAmount(123_456_700, 'XOF', 'fr')).toBe('1 234 567 francs CFA');
    // A fraction no payer uses is said rather than rounded away.
    expect(spokenAmount(150_050, 'XOF', 'fr')).toBe('1 500,50 francs CFA');
  });

  it('never leaves a no-break space a synthesizer might spell out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 10_000_000_000 }), (cents) => {
        expect(spokenAmount(cents, 'XOF', 'fr')).not.toMatch(/[\u00a0\u202f]/);
      }),
    );
  });

  it('announces received and failed payments in French and English', () => {
    const base = { id: 'pr-1', amountCents: 150_000, currency: 'XOF', paymentMethod: 'wave' };
    expect(announcementMessage({ ...base, status: 'success' })).toEqual({
      type: 'payment_received',
      paymentRequestId: 'pr-1',
      amount: 150_000,
      currency: 'XOF',
      paymentMethod: 'wave',
      text: { fr: 'Paiement reçu : 1 500 francs CFA', en: 'Payment received: 1,500 CFA francs' },
    });
    expect(announcementMessage({ ...base, status: 'error' })).toMatchObject({
      type: 'payment_failed',
      text: { fr: 'Paiement refusé : 1 500 francs CFA', en: 'Payment failed: 1,500 CFA francs' },
    });
  });

  it('shows a QR until its lifetime from the request creation', () => {
    const message = displayMessage({
      id: 'pr-1',
      amountCents: 250_000,
      currency: 'XOF',
      reference: 'till-1',
      paymentMethod: 'wave',
      qr: 'https://pay.example/checkout/1',
      createdAt: '2026-11-23T10:00:00.000Z',
      expiresAt: '2026-11-24T10:00:00.000Z',
    });
    expect(message).toEqual({
      type: 'payment_request',
      paymentRequestId: 'pr-1',
      amount: 250_000,
      currency: 'XOF',
      reference: 'till-1',
      paymentMethod: 'wave',
      qr: 'https://pay.example/checkout/1',
      expiresAt: new Date(Date.parse('2026-11-23T10:00:00.000Z') + displayLifetimeMs).toISOString(),
    });
  });

  it('takes a QR off at its request’s expiry when that comes first', () => {
    const message = displayMessage({
      id: 'pr-2',
      amountCents: 250_000,
      currency: 'XOF',
      reference: 'till-2',
      paymentMethod: 'orange',
      qr: 'https://pay.example/checkout/2',
      createdAt: '2026-11-23T10:00:00.000Z',
      expiresAt: '2026-11-23T10:05:00.000Z',
    });
    expect(message.expiresAt).toBe('2026-11-23T10:05:00.000Z');
  });
});

describe('device topics and presence', () => {
  it('name the three topics of a device and parse them back, nothing else', () => {
    expect(soundboxTopics('prod', 'Till-1')).toEqual({
      display: 'prod/soundbox/Till-1/display',
      announce: 'prod/soundbox/Till-1/announce',
      status: 'prod/soundbox/Till-1/status',
    });
    expect(parseSoundboxTopic('prod', 'prod/soundbox/Till-1/status')).toEqual({
      deviceId: 'Till-1',
      topic: 'status',
    });
    expect(parseSoundboxTopic('prod', 'prod/soundbox/+/status')).toBeUndefined();
    expect(parseSoundboxTopic('prod', 'prod/soundbox/Till-1/status/extra')).toBeUndefined();
    expect(parseSoundboxTopic('prod', 'other/Till-1/status')).toBeUndefined();
    // Another stage's device, in the same account: not this stage's topic.
    expect(parseSoundboxTopic('prod', 'dev/soundbox/Till-1/status')).toBeUndefined();
    expect(parseSoundboxTopic('staging', 'dev/soundbox/Till-1/status')).toBeUndefined();
  });

  it('is online while connected, or with a heartbeat under 90 s old', () => {
    const now = new Date('2026-11-23T10:00:00.000Z');
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
    expect(isOnline({}, now)).toBe(false);
    expect(isOnline({ connected: true }, now)).toBe(true);
    expect(isOnline({ connected: false, lastSeenAt: ago(89) }, now)).toBe(true);
    expect(isOnline({ connected: false, lastSeenAt: ago(90) }, now)).toBe(false);
  });

  it("reads the IoT rules' payloads, and refuses anything else", () => {
    expect(presenceEventOf({ clientId: 'Till-1', eventType: 'connected', timestamp: 1 })).toEqual({
      kind: 'connected',
      deviceId: 'Till-1',
      timestamp: 1,
    });
    expect(presenceEventOf({ type: 'heartbeat', at: 'x', deviceId: 'Till-1', receivedAt: 2 })).toEqual({
      kind: 'heartbeat',
      deviceId: 'Till-1',
      receivedAt: 2,
    });
    expect(presenceEventOf({ clientId: 'Till-1', eventType: 'subscribed', timestamp: 1 })).toBeUndefined();
    expect(presenceEventOf({ type: 'heartbeat', deviceId: 'Till-1' })).toBeUndefined();
  });
});

describe('create-device on a deployed stage', () => {
  it("creates the thing of the stage's type, an active certificate with the stage's policy, and attaches both", async () => {
    const iot = mockClient(IoTClient);
    iot.on(CreateThingCommand).resolves({ thingName: 'Till-1' });
    iot.on(CreateKeysAndCertificateCommand).resolves({
      certificateArn: 'arn:aws:iot:eu-west-1:1:cert/abc',
      certificatePem: 'PEM',
      keyPair: { PrivateKey: 'KEY', PublicKey: 'PUB' },
    });
    iot.on(DescribeEndpointCommand).resolves({ endpointAddress: 'abc-ats.iot.eu-west-1.amazonaws.com' });

    const answer = await provisionIotThing(
      new IoTClient({ region: 'eu-west-1' }),
      stageEntry(readRegistryFile(), 'dev'),
      {
        deviceId: 'Till-1',
        storeId: 'store-1',
        businessId: 'biz-1',
      },
    );

    expect(iot.commandCalls(CreateThingCommand)[0]?.args[0].input).toEqual({
      thingName: 'Till-1',
      thingTypeName: 'SoundBoxQrTerminal-dev',
      attributePayload: { attributes: { storeId: 'store-1', businessId: 'biz-1' } },
    });
    expect(iot.commandCalls(CreateKeysAndCertificateCommand)[0]?.args[0].input).toEqual({
      setAsActive: true,
    });
    expect(iot.commandCalls(AttachPolicyCommand)[0]?.args[0].input).toEqual({
      policyName: 'partner-payments-dev-soundbox',
      target: 'arn:aws:iot:eu-west-1:1:cert/abc',
    });
    expect(iot.commandCalls(AttachThingPrincipalCommand)[0]?.args[0].input).toEqual({
      thingName: 'Till-1',
      principal: 'arn:aws:iot:eu-west-1:1:cert/abc',
    });
    expect(iot.commandCalls(DescribeEndpointCommand)[0]?.args[0].input).toEqual({
      endpointType: 'iot:Data-ATS',
    });
    expect(answer).toEqual({
      deviceId: 'Till-1',
      mqtt: { url: 'mqtts://abc-ats.iot.eu-west-1.amazonaws.com:8883', clientId: 'Till-1' },
      certificatePem: 'PEM',
      privateKey: 'KEY',
      topics: soundboxTopics('dev', 'Till-1'),
    });
  });
});
