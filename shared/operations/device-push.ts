import { getDevice } from '#shared/data/device.ts';
import {
  countFailedAttempt,
  type PendingPush,
  pendingPushes,
  recordPendingPush,
  removePendingPush,
} from '#shared/data/device-push.ts';
import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { iotDataPlanePush } from '#shared/devices/iot-data-plane.ts';
import type { DevicePush } from '#shared/devices/port.ts';
import { endReasons } from '#shared/domain/payment-lifetime.ts';
import { announcementMessage, displayMessage, isOnline } from '#shared/domain/soundbox.ts';
import { logger } from '#shared/logger.ts';

/**
 * Soundbox terminals told about their payments: the QR when a soundbox request is created, the
 * outcome (spoken) when it completes, and the display cleared (silently when the request ended
 * unpaid: expired or cancelled, nobody is waiting to hear it). A push never fails the payment: one
 * that fails is recorded and the device-push sweeper tries it again, as the outbox sweeper does for
 * webhooks. These are the payment path's only hooks to devices: `showOnDevice` after a creation,
 * `announceOnDevice` after a completion; both do nothing for payments without a device.
 */
const devices: DevicePush = iotDataPlanePush;

/** An outcome older than this is no longer announced (the customer has left); the display is still cleared. */
export const announceWithinMs = 10 * 60_000;

/**
 * After a soundbox request was created: its QR to the device. Answers whether the device is online
 * (for the API answer's `deviceOnline`), read while the QR is on its way. Cost: the device read,
 * 0.5 RCU; nothing is written unless the publish fails (then 2 WCU, see data/device-push.ts).
 */
export async function showOnDevice(request: PaymentRequest): Promise<{ deviceOnline?: boolean }> {
  if (request.type !== 'soundbox' || !request.deviceId || !request.qrPayload) return {};
  const deviceId = request.deviceId;
  const message = displayMessage({ ...request, qr: request.qrPayload });
  const [device] = await Promise.all([
    getDevice(request.businessId, deviceId),
    attempt({
      kind: 'display',
      deviceId,
      paymentRequestId: request.id,
      message,
      recordedAt: new Date().toISOString(),
      attempts: 1,
      lastError: '',
    }),
  ]);
  return { deviceOnline: device ? isOnline(device, new Date()) : false };
}

/** After a completion: the display cleared and the outcome announced; after an end unpaid, only cleared. */
export async function announceOnDevice(completed: CompletedPayment | undefined): Promise<void> {
  if (!completed?.deviceId || completed.type !== 'soundbox') return;
  const base = { deviceId: completed.deviceId, paymentRequestId: completed.id, attempts: 1, lastError: '' };
  if ((endReasons as readonly (string | null)[]).includes(completed.errorReason ?? null)) {
    await attempt({ ...base, kind: 'clear', recordedAt: new Date().toISOString() });
    return;
  }
  await attempt({
    kind: 'outcome',
    deviceId: completed.deviceId,
    paymentRequestId: completed.id,
    message: announcementMessage({
      id: completed.id,
      status: completed.status === 'success' ? 'success' : 'error',
      amountCents: completed.amountCents,
      currency: completed.currency,
      paymentMethod: completed.collectionMethod ?? completed.paymentMethod,
    }),
    recordedAt: new Date().toISOString(),
    attempts: 1,
    lastError: '',
  });
}

export type CompletedPayment = Pick<
  PaymentRequest,
  'id' | 'type' | 'deviceId' | 'status' | 'amountCents' | 'currency' | 'paymentMethod' | 'collectionMethod'
> & { errorReason?: string | null };

async function attempt(push: PendingPush): Promise<void> {
  try {
    await deliver(push);
  } catch (error) {
    logger.warn('device push failed; the device-push sweeper will retry', {
      deviceId: push.deviceId,
      paymentRequestId: push.paymentRequestId,
      kind: push.kind,
      error: error as Error,
    });
    try {
      await recordPendingPush({ ...push, lastError: describe(error) });
    } catch (recordError) {
      // Neither the broker nor the table answers: the payment stands, the device misses this one.
      logger.error('device push lost: it could not be recorded for a retry', {
        paymentRequestId: push.paymentRequestId,
        kind: push.kind,
        error: recordError as Error,
      });
    }
  }
}

async function deliver(push: PendingPush): Promise<void> {
  if (push.kind === 'display') {
    await devices.show(push.deviceId, push.message);
    return;
  }
  if (push.kind === 'clear') {
    await devices.clear(push.deviceId);
    return;
  }
  // Cleared first: if the announcement then fails, the retry clears again (harmless) and says it.
  await devices.clear(push.deviceId);
  if (Date.now() - Date.parse(push.recordedAt) < announceWithinMs) {
    await devices.announce(push.deviceId, push.message);
  }
}

/** Retried pushes stop after a day: a device that long unreachable gets a fresh display on its next payment. */
export const giveUpAfterMs = 24 * 60 * 60_000;
export const sweepBatch = 100;

export interface DevicePushSweep {
  found: number;
  delivered: number;
  dropped: number;
  failed: number;
}

/**
 * Tries the pending pushes again, oldest first. A display goes out only while its request is still
 * pending and its QR not expired (otherwise it would put back a QR that was paid, failed or stale);
 * an outcome is delivered as `deliver` says. Each push is tried alone: one failing does not stop
 * the others, and it stays pending for the next run.
 */
export async function sweepDevicePushes(now = new Date()): Promise<DevicePushSweep> {
  const pushes = await pendingPushes(sweepBatch);
  const report: DevicePushSweep = { found: pushes.length, delivered: 0, dropped: 0, failed: 0 };
  for (const push of pushes) {
    try {
      if (!(await stillWanted(push, now))) {
        await removePendingPush(push);
        report.dropped++;
        continue;
      }
      await deliver(push);
      await removePendingPush(push);
      report.delivered++;
    } catch (error) {
      report.failed++;
      await countFailedAttempt(push, describe(error)).catch(() => undefined);
    }
  }
  return report;
}

async function stillWanted(push: PendingPush, now: Date): Promise<boolean> {
  if (now.getTime() - Date.parse(push.recordedAt) > giveUpAfterMs) {
    logger.error('device push given up', { paymentRequestId: push.paymentRequestId, kind: push.kind });
    return false;
  }
  if (push.kind !== 'display') return true;
  if (Date.parse(push.message.expiresAt) <= now.getTime()) return false;
  const request = await findPaymentRequest(push.paymentRequestId, true);
  return request?.status === 'pending';
}

const describe = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
