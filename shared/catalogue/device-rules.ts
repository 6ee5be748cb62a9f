import type { FunctionDeclaration } from '#shared/catalogue/access.ts';
import { type Located, locatedIn } from '#shared/catalogue/entry-files.ts';
import { soundboxDeviceIdLevel, soundboxTopics } from '#shared/domain/soundbox.ts';

/**
 * A function invoked by IoT rules on messages of the devices' broker: on AWS an IoT topic rule per
 * SQL statement, on the local host the embedded broker calling the handler with the same payload.
 * Devices exist on every stage, so none is sandbox-only.
 */
export interface DeviceRule extends FunctionDeclaration {
  /** IoT SQL (2016-03-23) for a stage, one rule each. */
  readonly sql: (stage: string) => readonly string[];
  readonly sandboxOnly?: false;
}

/** Each in `functions/devices/`. */
export const deviceRules = /* @__PURE__ */ locatedIn('devices', {
  /**
   * Heartbeats on the stage's `<stage>/soundbox/<id>/status`, and the broker's connect/disconnect
   * lifecycle events. Those are IoT Core's own topics, account-wide and without a stage: every
   * stage of an account hears every device's, and the function ignores a device its stage's table
   * does not hold (thing names are unique in the account, so a device is one stage's).
   */
  recordDevicePresence: {
    sql: (stage) => [
      `SELECT *, topic(${soundboxDeviceIdLevel}) AS deviceId, timestamp() AS receivedAt FROM '${soundboxTopics(stage, '+').status}' WHERE type = 'heartbeat'`,
      "SELECT clientId, eventType, timestamp FROM '$aws/events/presence/+/+'",
    ],
    access: ['table:GetItem', 'table:UpdateItem'],
  },
} satisfies Record<string, DeviceRule>);

export type DeviceRuleName = keyof typeof deviceRules;

export const deviceRuleEntries = /* @__PURE__ */ Object.entries(deviceRules) as [
  DeviceRuleName,
  DeviceRule & Located,
][];
