import type { FunctionDeclaration } from '#shared/catalogue/access.ts';
import { writesTable } from '#shared/catalogue/access.ts';
import { type Located, locatedIn } from '#shared/catalogue/entry-files.ts';

/**
 * A function invoked by IoT rules on messages of the devices' broker: on AWS an IoT topic rule per
 * SQL statement, on the local host the embedded broker calling the handler with the same payload.
 * Devices exist on every stage, so none is sandbox-only.
 */
export interface DeviceRule extends FunctionDeclaration {
  /** IoT SQL (2016-03-23), one rule each. */
  readonly sql: readonly string[];
  readonly sandboxOnly?: false;
}

/** Each in `functions/devices/`. */
export const deviceRules = /* @__PURE__ */ locatedIn('devices', {
  /** Heartbeats on `soundbox/<id>/status` and the broker's connect/disconnect lifecycle events. */
  recordDevicePresence: {
    sql: [
      "SELECT *, topic(2) AS deviceId, timestamp() AS receivedAt FROM 'soundbox/+/status' WHERE type = 'heartbeat'",
      "SELECT clientId, eventType, timestamp FROM '$aws/events/presence/+/+'",
    ],
    access: writesTable,
  },
} satisfies Record<string, DeviceRule>);

export type DeviceRuleName = keyof typeof deviceRules;

export const deviceRuleEntries = /* @__PURE__ */ Object.entries(deviceRules) as [
  DeviceRuleName,
  DeviceRule & Located,
][];
