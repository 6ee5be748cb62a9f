import type { TestProject } from 'vitest/node';
import type { LocalConfig } from '#infra/local/local-config.ts';
import { newDataDir, startLocalHost } from './local-host.ts';

/**
 * Webhook timings shortened so the tests see retries and timeouts in seconds: a receiver is given
 * 1.5 s instead of 30, retries wait 1 s, 5 s and 25 s instead of minutes.
 */
export const testHostEnv = {
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_RETRY_BASE_SECONDS: '1',
  /** Escrow holds of a few seconds, so the tests see holds expire. */
  ESCROW_MIN_HOLD_SECONDS: '2',
  /** Payment requests that expire in seconds, and a grace of seconds for a collection under way. */
  PAYMENT_REQUEST_MIN_LIFETIME_SECONDS: '2',
  PAYMENT_COLLECTION_GRACE_SECONDS: '2',
  /** A new payout account cools for seconds, so the tests see a withdrawal wait, then go. */
  PAYOUT_ACCOUNT_COOLING_SECONDS: '2',
  /** The hourly automatic settlement runs every 2 s, so the tests see a store settled at once. */
  AUTOMATIC_SETTLEMENT_SECONDS: '2',
  // A business's API access, switched on or off, takes effect within this time: tests wait for it
  // instead of a minute. (A revoked key is refused at once: its record is read on every request.)
  AUTH_CACHE_TTL_SECONDS: '2',
  // Every test signs in to the dashboard from 127.0.0.1: the per-address limit of a stage (30 an
  // hour) would refuse the run's later sign-ins. The per-phone limit still holds.
  SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: '1000',
  // The tenancy matrix and the fuzz suite make thousands of calls a minute with one key; the
  // per-key limit is checked by a host of its own (test/e2e/local-host-gateway.test.ts).
  API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
  // Free ports: several hosts (and a developer's own broker) may run on one machine.
  MQTT_PORT: '0',
};

/** One local host for the end-to-end run, on a free port over a fresh data folder. */
export default async function setup(project: TestProject) {
  const dataDir = newDataDir();
  const host = await startLocalHost(dataDir, testHostEnv);
  project.provide('localHost', { config: host.config, dataDir, output: host.output() });
  return async () => {
    await host.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    localHost: { config: LocalConfig; dataDir: string; output: string };
  }
}
