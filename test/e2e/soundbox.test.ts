import { randomUUID } from 'node:crypto';
import mqtt, { type ErrorWithSubackPacket } from 'mqtt';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DeviceProvisioning } from '#infra/admin-device.ts';
import { apiClient, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';
import { connectDevice, drawAndDecodeQr, json, type TestDevice } from '#test/support/soundbox-device.ts';

const { config, dataDir } = inject('localHost');
const { baseUrl } = config;
const call = apiClient(baseUrl);

let merchant: Merchant;
const devices: TestDevice[] = [];

async function newDevice(): Promise<DeviceProvisioning> {
  return admin<DeviceProvisioning>(
    dataDir,
    'create-device',
    '--store',
    merchant.storeId,
    '--device-id',
    `Till-${randomUUID().slice(0, 8)}`,
  );
}

async function online(provisioning: DeviceProvisioning, options = {}): Promise<TestDevice> {
  const device = await connectDevice(provisioning, options);
  devices.push(device);
  await device.client.subscribeAsync([provisioning.topics.display, provisioning.topics.announce], { qos: 1 });
  return device;
}

const soundboxRequest = (deviceId: string, amountCents = 150_000) => ({
  storeId: merchant.storeId,
  amountCents,
  currency: 'XOF',
  reference: `till-${randomUUID()}`,
  paymentDetails: {
    type: 'soundbox',
    data: {
      paymentMethod: 'wave',
      deviceId,
      successUrl: 'https://a.example/ok',
      errorUrl: 'https://a.example/ko',
    },
  },
});

const createRequest = (deviceId: string, amountCents?: number) =>
  call('POST', '/partner_api/payment_requests', merchant.headers, soundboxRequest(deviceId, amountCents));

const setBroker = (available: boolean) =>
  fetch(`${baseUrl}/__local/broker`, { method: 'POST', body: JSON.stringify({ available }) });

beforeAll(async () => {
  merchant = await newMerchant(dataDir, 'Cave Soundbox');
});

afterEach(async () => {
  await setBroker(true);
  await Promise.all(devices.splice(0).map((device) => device.close()));
});

describe('the QR on the device', () => {
  it('arrives within a second of the answer, retained, and decodes to the page the provider serves', async () => {
    const provisioning = await newDevice();
    expect(provisioning).toMatchObject({
      mqtt: { url: config.endpoints.mqtt, clientId: provisioning.deviceId, username: provisioning.deviceId },
      topics: {
        display: `local/soundbox/${provisioning.deviceId}/display`,
        announce: `local/soundbox/${provisioning.deviceId}/announce`,
        status: `local/soundbox/${provisioning.deviceId}/status`,
      },
    });
    const device = await online(provisioning);

    const created = await createRequest(provisioning.deviceId);
    expect(created.status).toBe(200);
    const { body } = created;
    const answeredAt = Date.now();
    const shown = await device.next(provisioning.topics.display, () => true, 1_000);
    expect(shown.at - answeredAt).toBeLessThan(1_000);
    const display = json(shown);
    expect(display).toEqual({
      type: 'payment_request',
      paymentRequestId: body.id,
      amount: 150_000,
      currency: 'XOF',
      reference: body.reference,
      // The operator the QR is for, so the device can say which app scans it.
      paymentMethod: 'wave',
      qr: expect.stringMatching(/^http:\/\/localhost:\d+\/sandbox\/provider\/checkout\//),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(display.expiresAt as string)).toBeGreaterThan(Date.now());

    const decoded = drawAndDecodeQr(display.qr as string);
    expect(decoded).toBe(display.qr);
    const checkout = await fetch(decoded as string);
    expect(checkout.status).toBe(200);
    expect(await checkout.text()).toContain('1');
  });

  it('is given again, retained, to a device that reconnects', async () => {
    const provisioning = await newDevice();
    const { body } = await createRequest(provisioning.deviceId, 250_000);
    const device = await online(provisioning);
    const shown = await device.next(provisioning.topics.display);
    expect(shown.retain).toBe(true);
    expect(json(shown)).toMatchObject({ paymentRequestId: body.id, amount: 250_000 });
  });

  it('says in the answer whether the device is online', async () => {
    const provisioning = await newDevice();
    const offline = await createRequest(provisioning.deviceId);
    expect(offline.status).toBe(200);
    expect(offline.body.deviceOnline).toBe(false);

    await online(provisioning);
    await expect.poll(async () => (await createRequest(provisioning.deviceId)).body.deviceOnline).toBe(true);
  });
});

describe('the announcement', () => {
  it('says payment_received with the amount when the payer approves, and clears the display', async () => {
    const provisioning = await newDevice();
    const device = await online(provisioning);
    const { body } = await createRequest(provisioning.deviceId, 150_000);
    await device.next(provisioning.topics.display);

    const approved = await call('POST', `/sandbox/payment_requests/${body.id}/approve`, merchant.headers, {});
    expect(approved.status).toBe(200);
    const announced = json(await device.next(provisioning.topics.announce));
    expect(announced).toEqual({
      type: 'payment_received',
      paymentRequestId: body.id,
      amount: 150_000,
      currency: 'XOF',
      paymentMethod: 'wave',
      text: { fr: 'Paiement reçu : 1 500 francs CFA', en: 'Payment received: 1,500 CFA francs' },
    });
    await device.next(provisioning.topics.display, (message) => message.payload.length === 0);

    // Nothing is retained any more: a device that reconnects shows no stale QR.
    const again = await connectDevice(provisioning, { clientId: provisioning.deviceId });
    devices.push(again);
    await again.client.subscribeAsync(provisioning.topics.display, { qos: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.messages.filter((message) => message.payload.length > 0)).toEqual([]);
  });

  it('says payment_failed when the payer declines', async () => {
    const provisioning = await newDevice();
    const device = await online(provisioning);
    const { body } = await createRequest(provisioning.deviceId, 99_900);
    await call('POST', `/sandbox/payment_requests/${body.id}/decline`, merchant.headers, {});
    expect(json(await device.next(provisioning.topics.announce))).toMatchObject({
      type: 'payment_failed',
      paymentRequestId: body.id,
      text: { fr: 'Paiement refusé : 999 francs CFA' },
    });
  });
});

describe("the broker's rules", () => {
  it("refuse a subscription to another device's topics", async () => {
    const mine = await newDevice();
    const other = await newDevice();
    const device = await connectDevice(mine);
    devices.push(device);
    // The SUBACK refuses each foreign filter (0x80) and grants the device's own.
    const refused = await device.client
      .subscribeAsync([other.topics.display, 'local/soundbox/+/display', '#', mine.topics.display], {
        qos: 1,
      })
      .then(
        () => undefined,
        (error: ErrorWithSubackPacket) => error,
      );
    expect(refused?.packet.granted).toEqual([128, 128, 128, 1]);

    await createRequest(other.deviceId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(device.messages).toEqual([]);
  });

  it('disconnect a device that publishes anywhere but its own status topic', async () => {
    const mine = await newDevice();
    const other = await newDevice();
    const device = await connectDevice(mine);
    devices.push(device);
    const closed = new Promise<void>((resolve) => device.client.once('close', () => resolve()));
    device.client.publish(other.topics.display, '{"type":"payment_request"}', { qos: 1 });
    await closed;
  });

  it('refuse wrong credentials, and a client id that is not the device', async () => {
    const mine = await newDevice();
    const other = await newDevice();
    const attempt = (options: mqtt.IClientOptions) =>
      mqtt.connectAsync(mine.mqtt.url, { protocolVersion: 4, reconnectPeriod: 0, ...options });
    await expect(
      attempt({ clientId: mine.deviceId, username: mine.deviceId, password: `${mine.mqtt.password}x` }),
    ).rejects.toThrow(/Bad username or password/i);
    await expect(
      attempt({ clientId: mine.deviceId, username: mine.deviceId, password: other.mqtt.password }),
    ).rejects.toThrow(/Bad username or password/i);
    await expect(
      attempt({ clientId: other.deviceId, username: mine.deviceId, password: mine.mqtt.password }),
    ).rejects.toThrow(/Identifier rejected/i);
  });
});

describe('a broker outage', () => {
  it('does not fail the payment, and the display arrives once the broker is back', async () => {
    const provisioning = await newDevice();
    const device = await online(provisioning, { reconnectPeriod: 300 });

    expect((await setBroker(false)).status).toBe(200);
    const created = await createRequest(provisioning.deviceId, 320_000);
    expect(created).toMatchObject({ status: 200, body: { status: 'pending', type: 'soundbox' } });
    const { body } = created;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(device.messages).toEqual([]);

    await setBroker(true);
    const shown = json(await device.next(provisioning.topics.display, () => true, 15_000));
    expect(shown).toMatchObject({ paymentRequestId: body.id, amount: 320_000 });
  });
});

describe('device presence', () => {
  it('shows online and lastSeenAt in the device list, from heartbeats and connections', async () => {
    const provisioning = await newDevice();
    const listed = async () => {
      const { status, body } = await call('GET', '/partner_api/devices', merchant.headers);
      expect(status).toBe(200);
      return (body as { id: string }[]).find((device) => device.id === provisioning.deviceId) as Record<
        string,
        unknown
      >;
    };
    expect(await listed()).toMatchObject({ type: 'SoundBoxQrTerminal', online: false, lastSeenAt: null });

    const device = await online(provisioning);
    await expect.poll(async () => (await listed()).online).toBe(true);
    const before = Date.now();
    device.client.publish(
      provisioning.topics.status,
      JSON.stringify({ type: 'heartbeat', at: new Date().toISOString() }),
      { qos: 1 },
    );
    await expect.poll(async () => (await listed()).lastSeenAt).not.toBeNull();
    expect(Date.parse((await listed()).lastSeenAt as string)).toBeGreaterThanOrEqual(before - 1000);

    await device.close();
    // Disconnected, but its heartbeat is under 90 s old: still online.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await listed()).online).toBe(true);
  });

  it('goes offline when a device that never sent a heartbeat disconnects', async () => {
    const provisioning = await newDevice();
    const listed = async () =>
      (
        (await call('GET', '/partner_api/devices', merchant.headers)).body as {
          id: string;
          online: boolean;
        }[]
      ).find((device) => device.id === provisioning.deviceId);
    const device = await online(provisioning);
    await expect.poll(async () => (await listed())?.online).toBe(true);
    await device.close();
    await expect.poll(async () => (await listed())?.online).toBe(false);
  });
});
