import { randomUUID } from 'node:crypto';
import {
  IoTDataPlaneClient,
  PublishCommand,
  ServiceUnavailableException,
} from '@aws-sdk/client-iot-data-plane';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDevice } from '#shared/data/device.ts';
import { pendingPushes } from '#shared/data/device-push.ts';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { recordDevicePresence } from '#shared/operations/device-presence.ts';
import { announceOnDevice, showOnDevice, sweepDevicePushes } from '#shared/operations/device-push.ts';
import { createPaymentRequestFor } from '#shared/operations/payment-requests.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { merchant } from '#test/support/fixtures.ts';

// The data plane is mocked (its calls are what is checked here); the table is DynamoDB Local. The
// local broker and a real device are in test/e2e/soundbox.test.ts.
const iotData = mockClient(IoTDataPlaneClient);
const unavailable = () => new ServiceUnavailableException({ message: 'down', $metadata: {} });
const baseUrl = 'http://localhost:0';

type Merchant = Awaited<ReturnType<typeof merchant>>;
let m: Merchant;

beforeAll(async () => {
  process.env.SANDBOX = 'true';
  m = await merchant();
});
beforeEach(async () => {
  iotData.reset();
  // Each test starts with no push pending from another.
  iotData.on(PublishCommand).resolves({});
  await sweepDevicePushes();
  iotData.reset();
});
afterEach(() => iotData.reset());

const published = () =>
  iotData.commandCalls(PublishCommand).map(({ args: [{ input }] }) => {
    const payload = input.payload as Uint8Array;
    return {
      topic: input.topic,
      retain: input.retain,
      qos: input.qos,
      payload: payload.length ? JSON.parse(new TextDecoder().decode(payload)) : '',
    };
  });

async function soundboxRequest(amountCents = 150_000): Promise<PaymentRequest> {
  return createPaymentRequestFor(
    m.caller,
    {
      storeId: m.store.id,
      amountCents,
      currency: 'XOF',
      reference: `till-${randomUUID()}`,
      paymentDetails: {
        type: 'soundbox',
        data: {
          paymentMethod: 'wave',
          deviceId: m.device.id,
          successUrl: 'https://a.example/ok',
          errorUrl: 'https://a.example/ko',
        },
      },
    },
    baseUrl,
  );
}

const topic = (name: string) => `local/soundbox/${m.device.id}/${name}`;

describe('a failed push', () => {
  it('is recorded, and the sweep shows the QR once the data plane answers again', async () => {
    iotData.on(PublishCommand).rejects(unavailable());
    const request = await soundboxRequest();
    expect(await showOnDevice(request)).toEqual({ deviceOnline: false });
    expect((await pendingPushes(10)).map((push) => [push.paymentRequestId, push.kind])).toEqual([
      [request.id, 'display'],
    ]);

    const stillDown = await sweepDevicePushes();
    expect(stillDown).toMatchObject({ found: 1, failed: 1 });
    expect((await pendingPushes(10))[0]?.attempts).toBe(2);

    iotData.reset();
    iotData.on(PublishCommand).resolves({});
    expect(await sweepDevicePushes()).toMatchObject({ found: 1, delivered: 1 });
    expect(published()).toEqual([
      {
        topic: topic('display'),
        retain: true,
        qos: 1,
        payload: expect.objectContaining({ paymentRequestId: request.id, qr: request.qrPayload }),
      },
    ]);
    expect(await pendingPushes(10)).toEqual([]);
  });

  it('of a display is dropped, not shown, once its request is no longer pending', async () => {
    iotData.on(PublishCommand).rejects(unavailable());
    const request = await soundboxRequest();
    await showOnDevice(request);
    const completion = await completePayment({
      callbackId: randomUUID(),
      provider: 'wave',
      providerReference: request.providerReference as string,
      paymentRequestId: request.id,
      outcome: 'success',
    });
    expect(completion.completed?.status).toBe('success');

    iotData.reset();
    iotData.on(PublishCommand).resolves({});
    expect(await sweepDevicePushes()).toMatchObject({ found: 1, dropped: 1, delivered: 0 });
    expect(published()).toEqual([]);
  });

  it('of an outcome clears the display and announces it, or only clears once the moment has passed', async () => {
    iotData.on(PublishCommand).rejects(unavailable());
    const request = await soundboxRequest(250_000);
    await announceOnDevice({ ...request, status: 'success' });

    iotData.reset();
    iotData.on(PublishCommand).resolves({});
    expect(await sweepDevicePushes()).toMatchObject({ delivered: 1 });
    expect(published()).toEqual([
      { topic: topic('display'), retain: true, qos: 1, payload: '' },
      {
        topic: topic('announce'),
        retain: false,
        qos: 1,
        payload: expect.objectContaining({ type: 'payment_received', amount: 250_000 }),
      },
    ]);
  });
});

it('a payment without a device pushes nothing and reads nothing', async () => {
  iotData.on(PublishCommand).resolves({});
  const request = { ...(await soundboxRequest()), type: 'redirect' as const, deviceId: undefined };
  expect(await showOnDevice(request)).toEqual({});
  await announceOnDevice({ ...request, status: 'success' });
  expect(published()).toEqual([]);
});

describe('presence', () => {
  it('keeps the newest heartbeat and connection state, whatever order they arrive in', async () => {
    const deviceId = m.device.id;
    const at = (seconds: number) => Date.parse('2026-11-23T10:00:00.000Z') + seconds * 1000;
    expect(await recordDevicePresence({ kind: 'heartbeat', deviceId, receivedAt: at(30) })).toBe('recorded');
    expect(await recordDevicePresence({ kind: 'heartbeat', deviceId, receivedAt: at(10) })).toBe('stale');
    expect(await recordDevicePresence({ kind: 'connected', deviceId, timestamp: at(40) })).toBe('recorded');
    expect(await recordDevicePresence({ kind: 'disconnected', deviceId, timestamp: at(20) })).toBe('stale');
    const device = await getDevice(m.business.id, deviceId);
    expect(device).toMatchObject({ connected: true, lastSeenAt: new Date(at(30)).toISOString() });
  });

  it('of a device nobody registered changes nothing', async () => {
    expect(
      await recordDevicePresence({ kind: 'connected', deviceId: 'Ghost-01', timestamp: Date.now() }),
    ).toBe('unknown_device');
  });
});
