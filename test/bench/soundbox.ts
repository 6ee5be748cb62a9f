import { performance } from 'node:perf_hooks';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { DeviceProvisioning } from '#infra/admin-device.ts';
import { type Bench, percentile } from '#test/bench/report.ts';
import { apiClient, newMerchant } from '#test/support/api-client.ts';
import { admin, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { connectDevice } from '#test/support/soundbox-device.ts';

/** Soundbox payments measured one after the other, on one device. */
const payments = 50;

export interface SoundboxBench {
  /** From sending the create request to the device holding the QR. */
  creationToQrMs: { p50: number; p95: number; max: number };
  /** From the completing transaction (the request's `updatedAt`, its event's instant) to the device holding the announcement. */
  completionToAnnouncementMs: { p50: number; p95: number; max: number };
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? Number.NaN };
};

/** What a cashier waits for on the local host, with a real MQTT client as the device. */
async function measureSoundbox(): Promise<SoundboxBench> {
  const dataDir = newDataDir();
  const host = await startLocalHost(dataDir, { MQTT_PORT: '0' });
  const dynamodb = new DynamoDBClient({
    endpoint: host.config.endpoints.dynamodb,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const call = apiClient(host.config.baseUrl);
    const merchant = await newMerchant(dataDir, 'Bench');
    const provisioning = await admin<DeviceProvisioning>(
      dataDir,
      'create-device',
      '--store',
      merchant.storeId,
      '--device-id',
      'Bench-Till-01',
    );
    const device = await connectDevice(provisioning);
    await device.client.subscribeAsync([provisioning.topics.display, provisioning.topics.announce], {
      qos: 1,
    });
    // The completion's instant, its event's: the request's `updatedAt`, which the completion sets last.
    const completedAt = async (paymentRequestId: string) => {
      const { Item } = await dynamodb.send(
        new GetItemCommand({
          TableName: host.config.tableName,
          Key: { pk: { S: `PAYREQ#${paymentRequestId}` }, sk: { S: 'PAYREQ' } },
          ConsistentRead: true,
        }),
      );
      return Date.parse(Item?.updatedAt?.S ?? '');
    };

    const toQr: number[] = [];
    const toAnnouncement: number[] = [];
    // The first round loads the handlers and is not counted.
    for (let round = 0; round <= payments; round++) {
      const sentAt = performance.timeOrigin + performance.now();
      const created = await call('POST', '/partner_api/payment_requests', merchant.headers, {
        storeId: merchant.storeId,
        amountCents: 150_000,
        currency: 'XOF',
        reference: `bench-${round}`,
        paymentDetails: {
          type: 'soundbox',
          data: {
            paymentMethod: 'wave',
            deviceId: provisioning.deviceId,
            successUrl: 'https://a.example/ok',
            errorUrl: 'https://a.example/ko',
          },
        },
      });
      const id = created.body.id as string;
      const shown = await device.next(
        provisioning.topics.display,
        (message) =>
          message.payload.length > 0 && JSON.parse(message.payload.toString()).paymentRequestId === id,
      );
      const approved = await call('POST', `/sandbox/payment_requests/${id}/approve`, merchant.headers, {});
      if (approved.body.status !== 'success')
        throw new Error('the sandbox approval did not complete the payment');
      const announced = await device.next(
        provisioning.topics.announce,
        (message) => JSON.parse(message.payload.toString()).paymentRequestId === id,
      );
      if (round === 0) continue;
      toQr.push(shown.at - sentAt);
      toAnnouncement.push(announced.at - (await completedAt(id)));
    }
    await device.close();
    return { creationToQrMs: summary(toQr), completionToAnnouncementMs: summary(toAnnouncement) };
  } finally {
    dynamodb.destroy();
    await host.stop();
  }
}

export const soundbox: Bench = async () => {
  const result = await measureSoundbox();
  return {
    name: 'soundbox',
    title: `Soundbox on the local host: ${payments} payments one after the other, a real MQTT client as the device (ms)`,
    columns: ['path', 'p50', 'p95', 'max'],
    rows: [
      ['creation request sent → QR on the device', ...Object.values(result.creationToQrMs)],
      [
        'completion committed → announcement on the device',
        ...Object.values(result.completionToAnnouncementMs),
      ],
    ],
    data: result,
  };
};
