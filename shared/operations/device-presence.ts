import {
  deviceIdPattern,
  findDeviceBusiness,
  recordConnection,
  recordHeartbeat,
} from '#shared/data/device.ts';
import { logger } from '#shared/logger.ts';

/**
 * What the IoT rules hand the presence function: a heartbeat from `soundbox/<id>/status` (with the
 * broker's receive time, since a device's clock is not to be trusted), or an IoT lifecycle event
 * (`$aws/events/presence/connected|disconnected/<clientId>`; the policy makes the client id the
 * thing name).
 */
export type PresenceEvent =
  | { kind: 'heartbeat'; deviceId: string; receivedAt: number }
  | { kind: 'connected' | 'disconnected'; deviceId: string; timestamp: number };

export type PresenceResult = 'recorded' | 'stale' | 'unknown_device';

/** Records a device's heartbeat or connection change; older news than what is recorded changes nothing. */
export async function recordDevicePresence(event: PresenceEvent): Promise<PresenceResult> {
  if (!deviceIdPattern.test(event.deviceId)) return 'unknown_device';
  const businessId = await findDeviceBusiness(event.deviceId);
  if (!businessId) {
    logger.warn('presence of an unregistered device', { deviceId: event.deviceId });
    return 'unknown_device';
  }
  const recorded =
    event.kind === 'heartbeat'
      ? await recordHeartbeat(businessId, event.deviceId, new Date(event.receivedAt).toISOString())
      : await recordConnection(
          businessId,
          event.deviceId,
          event.kind === 'connected',
          new Date(event.timestamp).toISOString(),
        );
  return recorded ? 'recorded' : 'stale';
}

/**
 * The rules' payloads, as IoT Core's SQL builds them (see infra/constructs/devices.ts): the heartbeat rule adds
 * `deviceId` and `receivedAt` to the device's message; lifecycle events carry `clientId`,
 * `eventType` and `timestamp`. Anything else is not a presence event.
 */
export function presenceEventOf(payload: Record<string, unknown>): PresenceEvent | undefined {
  const { eventType, clientId, timestamp, deviceId, receivedAt, type } = payload;
  if ((eventType === 'connected' || eventType === 'disconnected') && typeof clientId === 'string') {
    if (typeof timestamp !== 'number') return undefined;
    return { kind: eventType, deviceId: clientId, timestamp };
  }
  if (type === 'heartbeat' && typeof deviceId === 'string' && typeof receivedAt === 'number') {
    return { kind: 'heartbeat', deviceId, receivedAt };
  }
  return undefined;
}
