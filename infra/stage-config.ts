import type { Node } from 'constructs';
import { feeScheduleFromEnvironment, payoutFeeScheduleFromEnvironment } from '#shared/domain/fees.ts';

/**
 * Per-stage settings given at synth with `-c NAME=VALUE`, checked there so that a typo fails
 * `cdk synth` instead of every payment of the stage at run time, and handed to every function in
 * the environment variables the shared code reads.
 */
const stageSettings = {
  feeSchedule: { variable: 'FEE_SCHEDULE', check: checkFeeSchedule },
  payoutFeeSchedule: { variable: 'PAYOUT_FEE_SCHEDULE', check: checkPayoutFeeSchedule },
  collectionCeilings: { variable: 'COLLECTION_CEILINGS', check: checkCollectionCeilings },
  publicBaseUrl: { variable: 'PUBLIC_BASE_URL', check: checkPublicBaseUrl },
  smsOriginationIdentity: { variable: 'SMS_ORIGINATION_IDENTITY', check: checkSmsOriginationIdentity },
  escrowMinHoldSeconds: { variable: 'ESCROW_MIN_HOLD_SECONDS', check: checkEscrowMinHoldSeconds },
} as const satisfies Record<string, { variable: string; check: (value: string) => string }>;

/**
 * The environment variables of the settings given in the context, each checked. A setting left
 * out is not set at all, so the code keeps its defaults.
 */
export function stageEnvironmentOf(node: Node): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, setting] of Object.entries(stageSettings)) {
    const given: unknown = node.tryGetContext(name);
    if (given === undefined) continue;
    // `-c` gives strings; cdk.json or a test's App may give the JSON settings already parsed.
    const text = typeof given === 'string' ? given : JSON.stringify(given);
    try {
      environment[setting.variable] = setting.check(text);
    } catch (error) {
      throw new Error(`Invalid -c ${name}=${text}: ${(error as Error).message}`);
    }
  }
  return environment;
}

function parseObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** The runtime's own check, so synth refuses exactly what the functions would. */
function checkSchedule(text: string, runtimeCheck: (text: string) => unknown): string {
  const overrides = parseObject(text);
  for (const [method, rule] of Object.entries(overrides)) {
    // The runtime reads fields of each rule without looking at it first: a null would fail there
    // with a TypeError rather than a message naming the method.
    if (typeof rule !== 'object' || rule === null) throw new Error(`${method} must be an object`);
  }
  runtimeCheck(text);
  return JSON.stringify(overrides);
}

function checkFeeSchedule(text: string): string {
  return checkSchedule(text, feeScheduleFromEnvironment);
}

function checkPayoutFeeSchedule(text: string): string {
  return checkSchedule(text, payoutFeeScheduleFromEnvironment);
}

/** From verification level to cents, or null for no ceiling, as `collectionCeiling` reads it. */
function checkCollectionCeilings(text: string): string {
  const ceilings = parseObject(text);
  for (const [level, ceiling] of Object.entries(ceilings)) {
    // A key that is not a level would be ignored at run time, leaving the intended level unchanged.
    if (!/^(0|[1-9][0-9]*)$/.test(level)) throw new Error(`${level} is not a verification level`);
    if (ceiling !== null && !(Number.isSafeInteger(ceiling) && (ceiling as number) >= 0)) {
      throw new Error(
        `level ${level} must be a non-negative integer number of cents, or null for no ceiling`,
      );
    }
  }
  return JSON.stringify(ceilings);
}

/** Where payers and providers reach the stage: pages and callback URLs are built on it. */
function checkPublicBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('not an absolute URL');
  }
  if (url.protocol !== 'https:') throw new Error('must be an https:// URL');
  if (url.search || url.hash || url.username || url.password) {
    throw new Error('must have no query, fragment or credentials: paths are appended to it');
  }
  return text.replace(/\/$/, '');
}

/** A sender id, a phone number, or the id or ARN of a phone number or pool, as SendTextMessage takes. */
function checkSmsOriginationIdentity(text: string): string {
  if (!/^[A-Za-z0-9_:/+.-]{1,256}$/.test(text)) {
    throw new Error('must be a sender id, a phone number, or a phone number or pool id or ARN');
  }
  return text;
}

function checkEscrowMinHoldSeconds(text: string): string {
  const seconds = Number(text);
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 90 * 86_400) {
    throw new Error('must be a whole number of seconds from 1 to 90 days');
  }
  return String(seconds);
}
