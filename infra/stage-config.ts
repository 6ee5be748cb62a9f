import type { Node } from 'constructs';
import { feeScheduleFromEnvironment, payoutFeeScheduleFromEnvironment } from '#shared/domain/fees.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import { isUemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';
import {
  type AdapterName,
  adapterNames,
  adaptersOfRoute,
  type LiveAdapterName,
  type MethodRoute,
  routeProblems,
} from '#shared/providers/adapters.ts';

/**
 * Checks of the per-stage settings of the stage registry (infra/stage-registry.ts), run at synth so
 * that a typo fails `cdk synth` instead of every payment of the stage at run time. Each returns the
 * value of the environment variable the shared code reads.
 */

/** The settings that used to be given with `-c`; they now live in the stage's registry entry. */
export const registrySettingNames = [
  'feeSchedule',
  'payoutFeeSchedule',
  'collectionCeilings',
  'publicBaseUrl',
  'smsOriginationIdentity',
  'providerRoutes',
  'mtnTargetEnvironment',
  'mtnApiUrl',
  'waveApiUrl',
  'escrowMinHoldSeconds',
  'paymentRequestMinLifetimeSeconds',
  'apiKeyRateLimitPerMinute',
  'accountConcurrencyLimit',
] as const;

/**
 * A setting given on the command line would hold for one deploy only, and the next deploy without
 * it would reset it: refused, pointing at the registry.
 */
export function refuseCommandLineSettings(node: Node): void {
  for (const name of registrySettingNames) {
    if (node.tryGetContext(name) !== undefined) {
      throw new Error(
        `-c ${name} is no longer read: set ${name} in the stage's entry of context.stages in cdk.json, so every deploy keeps it`,
      );
    }
  }
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

export function checkFeeSchedule(text: string): string {
  return checkSchedule(text, feeScheduleFromEnvironment);
}

export function checkPayoutFeeSchedule(text: string): string {
  return checkSchedule(text, payoutFeeScheduleFromEnvironment);
}

/** From verification level to cents, or null for no ceiling, as `collectionCeiling` reads it. */
export function checkCollectionCeilings(text: string): string {
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
export function checkPublicBaseUrl(text: string): string {
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
export function checkSmsOriginationIdentity(text: string): string {
  if (!/^[A-Za-z0-9_:/+.-]{1,256}$/.test(text)) {
    throw new Error('must be a sender id, a phone number, or a phone number or pool id or ARN');
  }
  return text;
}

export function checkHttpsUrl(text: string): string {
  if (!/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(text))
    throw new Error('must be an https:// URL without query');
  return text.replace(/\/$/, '');
}

export function checkProviderRoutes(text: string): string {
  const routes = parseObject(text);
  const checkAdapter = (where: string, adapter: unknown) => {
    if (!(adapterNames as readonly string[]).includes(adapter as string)) {
      throw new Error(`${where} → ${String(adapter)}: the adapters are ${adapterNames.join(', ')}`);
    }
  };
  for (const [method, route] of Object.entries(routes)) {
    if (![...providerCodes, 'bank'].includes(method)) throw new Error(`${method} is not a payment method`);
    if (typeof route === 'object' && route !== null && !Array.isArray(route)) {
      for (const [country, adapter] of Object.entries(route)) {
        if (country !== '*' && !isUemoaCountry(country)) {
          throw new Error(`${method}.${country}: a country of the zone (${uemoaCountries.join(', ')}) or *`);
        }
        checkAdapter(`${method}.${country}`, adapter);
      }
    } else checkAdapter(method, route);
  }
  const problems = routeProblems(routes as Record<string, MethodRoute>);
  if (problems.length > 0) throw new Error(problems.join('; '));
  return JSON.stringify(routes);
}

/**
 * Production's routes unless its registry entry says otherwise: Wave through its own API; MTN
 * MoMo through its own in Côte d'Ivoire (the country its adapter targets) and through pawaPay
 * elsewhere; Orange Money and Moov Money through pawaPay. Djamo has no public API: no route, so it
 * is refused (docs/operations/live-providers.md).
 */
export const productionRoutes: Record<string, MethodRoute> = {
  wave: 'wave',
  mtn: { CI: 'mtn', '*': 'pawapay' },
  orange: 'pawapay',
  moov: 'pawapay',
};

/**
 * Which adapter serves each payment method on a stage. Production takes `productionRoutes`
 * unless told otherwise, and never the sandbox; a sandbox stage sends every method to the sandbox
 * unless its `providerRoutes` names a real adapter (a staging stage on the providers' own
 * sandboxes, say).
 */
export function providerRoutesOf(
  stageEnvironment: Readonly<Record<string, string>>,
  production: boolean,
): Partial<Record<string, MethodRoute>> {
  const given = stageEnvironment.PROVIDER_ROUTES;
  const routes = given
    ? (JSON.parse(given) as Record<string, MethodRoute>)
    : production
      ? productionRoutes
      : {};
  if (production && adaptersOfRoutes(routes).includes('sandbox')) {
    throw new Error('Invalid providerRoutes: production cannot route to the sandbox');
  }
  // A registry entry's routes were checked against the operator table by checkProviderRoutes;
  // production's default is a constant, held to the same rule by a test.
  return routes;
}

const adaptersOfRoutes = (routes: Partial<Record<string, MethodRoute>>): AdapterName[] =>
  Object.values(routes).flatMap(adaptersOfRoute);

/** The live adapters a stage's routes use: each has its credentials secret on that stage. */
export const liveAdaptersOf = (routes: Partial<Record<string, MethodRoute>>) =>
  [...new Set(adaptersOfRoutes(routes))].filter(
    (adapter): adapter is LiveAdapterName => adapter !== 'sandbox',
  );

export function checkEscrowMinHoldSeconds(text: string): string {
  const seconds = Number(text);
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 90 * 86_400) {
    throw new Error('must be a whole number of seconds from 1 to 90 days');
  }
  return String(seconds);
}

/** A new payout account's wait before it receives withdrawals: 0 (none) to 7 days, in seconds. */
export function checkPayoutAccountCoolingSeconds(text: string): string {
  const seconds = Number(text);
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > 7 * 86_400) {
    throw new Error('must be a whole number of seconds from 0 to 7 days');
  }
  return String(seconds);
}

/** What a business pays a segment of SMS credit: whole francs (cents, a multiple of 100), up to 1 000 F. */
export function checkSmsSegmentPriceCents(text: string): string {
  const cents = Number(text);
  if (!Number.isSafeInteger(cents) || cents < 100 || cents > 100_000 || cents % 100 !== 0) {
    throw new Error('must be whole francs in cents (a multiple of 100) from 100 to 100000');
  }
  return String(cents);
}

/** Codes an hour for the whole stage: each is an SMS the service pays for, so a bounded whole number. */
export function checkSignInCodesPerHour(text: string): string {
  const codes = Number(text);
  if (!Number.isSafeInteger(codes) || codes < 1 || codes > 100_000) {
    throw new Error('must be a whole number of codes from 1 to 100000');
  }
  return String(codes);
}

/** The shortest lifetime a payment request may ask for: a few seconds on the local host and in tests. */
export function checkPaymentRequestMinLifetimeSeconds(text: string): string {
  const seconds = Number(text);
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 86_400) {
    throw new Error('must be a whole number of seconds from 1 to 1 day');
  }
  return String(seconds);
}

/**
 * Requests one API key id may make in a minute, on every stage unless its registry entry sets
 * `apiKeyRateLimitPerMinute`: a fifth of the stage's steady throttle (100/s) over a minute, so it
 * takes five keys at their limit to reach the stage's own throttle. The stage's WAF rule and the
 * local host's limit (infra/local/rate-limit.ts) both read it through `apiKeyRateLimitPerMinute`.
 */
export const defaultApiKeyRateLimitPerMinute = 1200;

/** WAF's rate-based rules take a limit from 10 to 2,000,000,000 requests per window. */
export function checkApiKeyRateLimitPerMinute(text: string): string {
  const limit = Number(text);
  if (!Number.isSafeInteger(limit) || limit < 10 || limit > 2_000_000_000) {
    throw new Error('must be a whole number of requests from 10 to 2000000000');
  }
  return String(limit);
}

/** The per-key limit of a stage's (or the local host's) environment: `API_KEY_RATE_LIMIT_PER_MINUTE`. */
export function apiKeyRateLimitPerMinute(environment: Readonly<Record<string, string | undefined>>): number {
  const given = environment.API_KEY_RATE_LIMIT_PER_MINUTE;
  return given === undefined || given === ''
    ? defaultApiKeyRateLimitPerMinute
    : Number(checkApiKeyRateLimitPerMinute(given));
}

/** Who checks identities on the stage: the sandbox's own test values, or Smile ID. */
export const identityVendors = ['sandbox', 'smileid'] as const;

export function checkIdentityVendor(text: string): string {
  if (!(identityVendors as readonly string[]).includes(text)) {
    throw new Error(`must be one of ${identityVendors.join(', ')}`);
  }
  return text;
}

/** Country of the zone → the ID type Smile ID looks up there (`NATIONAL_ID_NO_PHOTO`, say). */
export function checkSmileIdIdTypes(text: string): string {
  const idTypes = parseObject(text);
  for (const [country, idType] of Object.entries(idTypes)) {
    if (!isUemoaCountry(country)) {
      throw new Error(`${country}: a country of the zone (${uemoaCountries.join(', ')})`);
    }
    if (typeof idType !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(idType)) {
      throw new Error(`${country} must name one of Smile ID's ID types, such as NATIONAL_ID_NO_PHOTO`);
    }
  }
  return JSON.stringify(idTypes);
}

/**
 * A stage's identity vendor as its functions read it (`IDENTITY_VENDOR`, from the entry's
 * settings): production's is Smile ID unless its entry says otherwise, and never the sandbox, whose
 * check approves any ID number not ending in 0000; Smile ID's settings are refused where Smile ID
 * is not the vendor, as nothing would read them. Undefined: the sandbox's, by default.
 */
export function identityVendorOf(
  settings: Readonly<Record<string, string>>,
  production: boolean,
): string | undefined {
  const vendor = settings.IDENTITY_VENDOR ?? (production ? 'smileid' : undefined);
  if (production && vendor === 'sandbox') {
    throw new Error(
      'identityVendor: a production stage cannot use the sandbox\'s own identity check (it approves any ID number not ending in 0000): set "smileid" (docs/operations/identity.md)',
    );
  }
  if (vendor !== 'smileid') {
    const unused = Object.entries(smileIdSettingVariables).find(([, variable]) => variable in settings);
    if (unused) throw new Error(`${unused[0]} is read only where identityVendor is "smileid"`);
  }
  return vendor;
}

/** Smile ID's settings in a registry entry, and the variables they become. */
export const smileIdSettingVariables = {
  smileIdBaseUrl: 'SMILE_ID_BASE_URL',
  smileIdIdTypes: 'SMILE_ID_ID_TYPES',
  smileIdWebScriptUrl: 'SMILE_ID_WEB_SCRIPT_URL',
} as const;
