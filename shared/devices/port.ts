import type { AnnouncementMessage, DisplayMessage } from '#shared/domain/soundbox.ts';

/**
 * The port behind which soundbox terminals are reached. A push either reaches the device's topics
 * (the device may be offline: the broker keeps the retained display for it) or throws, and the
 * caller records it for a later retry; it never decides anything about the payment.
 */
export interface DevicePush {
  /** Replaces what the device shows (retained, so a device that reconnects gets it). */
  show(deviceId: string, message: DisplayMessage): Promise<void>;
  /** Clears the retained display: nothing is waiting for payment on this device any more. */
  clear(deviceId: string): Promise<void>;
  /** Tells the device to say a payment's outcome (not retained: said once). */
  announce(deviceId: string, message: AnnouncementMessage): Promise<void>;
}
