import { randomUUID } from 'node:crypto';
import { type Device, getDevice } from '#shared/data/device.ts';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { paymentRequestsById } from '#shared/data/payment-requests-by-id.ts';
import type { Store } from '#shared/data/store.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import { providerServes, providersIn } from '#shared/domain/operator-countries.ts';
import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';
import { isOnline } from '#shared/domain/soundbox.ts';
import { defaultCountry } from '#shared/domain/uemoa-countries.ts';
import { DeviceNotFound } from '#shared/errors/businesses.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { showOnDevice } from '#shared/operations/device-push.ts';
import { createPaymentRequestFor } from '#shared/operations/payment-requests.ts';
import { devicesOf, storeForCollection, storesOf } from '#shared/operations/stores.ts';

/**
 * The dashboard's soundboxes: the devices as `GET /partner_api/devices` lists them (online while
 * connected or heard from within 90 s), each with its store and its last payment request.
 *
 * "Show a test QR": the service has no test message a device understands (its display takes a
 * payment request, nothing else), so the test is the closest real thing: a soundbox payment
 * request of the smallest amount the API takes (100 cents, 1 F CFA), its reference and description
 * saying it is a test, made by the API's own operation and pushed by its own device path
 * (`createPaymentRequestFor`, `showOnDevice`). The device shows it as it will show a sale, and the
 * request expires unpaid (30 minutes, the display 15) unless someone pays the franc.
 */
export interface ListedSoundbox {
  device: Device;
  storeName: string;
  timeZone: string;
  online: boolean;
  lastPayment: PaymentRequest | undefined;
}

/** Cost: the devices' and the stores' queries, and one BatchGetItem of the last payments (0.5 RCU each). */
export async function soundboxesOverview(member: ActingMember, now = new Date()) {
  const caller = callerForMember(member);
  const [devices, stores] = await Promise.all([devicesOf(caller), storesOf(caller)]);
  const payments = await paymentRequestsById(
    member.businessId,
    devices.flatMap((device) => (device.lastPaymentRequestId ? [device.lastPaymentRequestId] : [])),
  );
  const soundboxes: ListedSoundbox[] = devices.map((device) => {
    const store = stores.find((candidate) => candidate.id === device.storeId);
    return {
      device,
      storeName: store?.name ?? device.storeId,
      timeZone: storeTimeZone(store ?? {}),
      online: isOnline(device, now),
      lastPayment: device.lastPaymentRequestId ? payments.get(device.lastPaymentRequestId) : undefined,
    };
  });
  return { soundboxes };
}

/** The smallest amount the API's payment request takes: 1 F CFA. */
export const testQrAmountCents = 100;

/** Wave where it takes money (the soundbox's usual QR), else the store country's first provider. */
function testQrMethod(store: Store): ProviderCode {
  const country = store.country ?? defaultCountry;
  if (providerServes('wave', country)) return 'wave';
  return providersIn(country, providerCodes)[0] ?? 'wave';
}

/**
 * Makes the test payment request for one of the business's devices (404 for another's) and pushes
 * its QR to the device, then records who did it. Answers whether the device is online.
 */
export async function showTestQr(
  member: ActingMember,
  deviceId: string,
  baseUrl: string,
  sourceIp: string,
): Promise<{ deviceId: string; deviceOnline: boolean }> {
  const caller = callerForMember(member);
  const device = await getDevice(member.businessId, deviceId);
  if (!device) throw new DeviceNotFound();
  const store = await storeForCollection(caller, device.storeId, undefined);
  const request = await createPaymentRequestFor(
    caller,
    {
      storeId: store.id,
      amountCents: testQrAmountCents,
      currency: store.currency,
      reference: `test-qr-${randomUUID()}`,
      description: 'QR de test / Test QR',
      paymentDetails: { type: 'soundbox', data: { paymentMethod: testQrMethod(store), deviceId: device.id } },
    },
    baseUrl,
  );
  const { deviceOnline = false } = await showOnDevice(request);
  await recordAudit(member, {
    action: 'soundbox_test_qr_shown',
    subjectId: device.id,
    detail: `payment request ${request.id}`,
    sourceIp,
  });
  return { deviceId: device.id, deviceOnline };
}
