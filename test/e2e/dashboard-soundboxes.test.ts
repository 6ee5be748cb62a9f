import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceProvisioning } from '#infra/admin-device.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { backgroundWorkMs, type DashboardBrowser, signUpOwner } from '#test/support/dashboard.ts';
import {
  memberOf,
  provisionSoundbox,
  theLocalHost,
  type VerifiedOwner,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';
import { connectDevice, json, type TestDevice } from '#test/support/soundbox-device.ts';

/**
 * The dashboard's soundboxes over the real local host, with devices provisioned as the soundbox
 * tests provision them and played by real MQTT clients: online and offline as the API says, the
 * test QR reaching the device over MQTT as a real 1 F CFA soundbox request labelled as a test,
 * and the page's last payment; a viewer, forged posts and another business's device push nothing.
 */
const { dataDir, baseUrl } = theLocalHost();

let owner: VerifiedOwner;
const devices: TestDevice[] = [];

beforeAll(async () => {
  // The test QR is a real payment request: the business must be allowed to collect.
  owner = await verifiedOwner(baseUrl);
});

afterEach(async () => {
  await Promise.all(devices.splice(0).map((device) => device.close()));
});

const newDevice = () => provisionSoundbox(dataDir, owner.storeId);

async function online(provisioning: DeviceProvisioning): Promise<TestDevice> {
  const device = await connectDevice(provisioning);
  devices.push(device);
  await device.client.subscribeAsync([provisioning.topics.display], { qos: 1 });
  return device;
}

const itemOf = (page: string, deviceId: string) =>
  new RegExp(`<li data-device-id="${deviceId}">([\\s\\S]*?)</li>`).exec(page)?.[1] ?? '';

const stateOf = async (browser: DashboardBrowser, deviceId: string) =>
  /data-testid="device-state">([^<]+)</.exec(
    itemOf((await browser.get('/dashboard/soundboxes?lang=en')).text, deviceId),
  )?.[1];

describe('soundboxes on the dashboard', () => {
  it('shows each device with its store, online or offline as the API says, and never seen before a heartbeat', async () => {
    const [idle, connected] = [await newDevice(), await newDevice()];
    const page = await owner.browser.get('/dashboard/soundboxes');
    expect(page.status).toBe(200);
    const item = itemOf(page.text, idle.deviceId);
    expect(item).toContain('Yopougon');
    expect(item).toContain('Hors ligne');
    expect(item).toContain('Jamais');
    expect(await stateOf(owner.browser, idle.deviceId)).toBe('Offline');

    await online(connected);
    await expect.poll(() => stateOf(owner.browser, connected.deviceId)).toBe('Online');
    expect(await stateOf(owner.browser, idle.deviceId)).toBe('Offline');
  });

  it('shows a test QR: a 1 F CFA soundbox request labelled as a test reaches the device over MQTT, and is its last payment', async () => {
    const provisioning = await newDevice();
    const device = await online(provisioning);
    await expect.poll(() => stateOf(owner.browser, provisioning.deviceId)).toBe('Online');
    const page = await owner.browser.get('/dashboard/soundboxes?lang=en');
    expect(itemOf(page.text, provisioning.deviceId)).toContain('Show a test QR');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';

    const sent = await owner.browser.post(`/dashboard/soundboxes/${provisioning.deviceId}/test-qr?lang=en`, {
      csrf,
    });
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    expect(sent.location).toBe(
      `${baseUrl}/dashboard/soundboxes?lang=en&sent=${provisioning.deviceId}&online=1`,
    );
    const shown = await device.next(provisioning.topics.display);
    expect(json(shown)).toMatchObject({
      type: 'payment_request',
      amount: 100,
      currency: 'XOF',
      reference: expect.stringMatching(/^test-qr-/),
      qr: expect.stringMatching(/^http:\/\/localhost:\d+\/sandbox\/provider\/checkout\//),
    });

    const after = await owner.browser.get(sent.location?.replace(baseUrl, '') ?? '');
    expect(after.text).toContain(`Test QR sent to ${provisioning.deviceId}.`);
    expect(itemOf(after.text, provisioning.deviceId)).toContain(formatAmount(100));
    const audit = await owner.browser.get('/dashboard/audit?action=soundbox_test_qr_shown');
    expect(audit.text).toContain(provisioning.deviceId);
  });

  it('refuses a viewer, a post without the token or from another Origin, and another business’s device: nothing reaches the device', async () => {
    const provisioning = await newDevice();
    const device = await online(provisioning);
    const path = `/dashboard/soundboxes/${provisioning.deviceId}/test-qr`;

    const viewer = await memberOf(owner, 'viewer');
    const list = await viewer.get('/dashboard/soundboxes');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`data-device-id="${provisioning.deviceId}"`);
    expect(list.text).not.toContain(path);
    expect((await viewer.post(path, { csrf: await viewer.csrfOf() })).status).toBe(403);

    const csrf = await owner.browser.csrfOf();
    expect((await owner.browser.post(path, {})).status).toBe(403);
    expect((await owner.browser.post(path, { csrf }, { origin: 'https://evil.example' })).status).toBe(403);

    const other = await signUpOwner(baseUrl);
    expect((await other.browser.post(path, { csrf: await other.browser.csrfOf() })).status).toBe(404);
    expect((await other.browser.get('/dashboard/soundboxes')).text).not.toContain(provisioning.deviceId);

    // None of those reached the device: the owner's own test QR, sent after them, is the first and
    // only thing it shows (one publisher, one subscriber, QoS 1: the broker keeps their order).
    const sent = await owner.browser.post(path, { csrf });
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    await device.next(provisioning.topics.display, () => true, backgroundWorkMs);
    expect(device.messages.filter((message) => message.topic === provisioning.topics.display)).toHaveLength(
      1,
    );
  });
});
