import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkAccountConcurrencyLimit, defaultAccountConcurrencyLimit } from '#infra/concurrency-budget.ts';
import { projectRoot } from '#infra/paths.ts';
import {
  checkApiKeyRateLimitPerMinute,
  checkCollectionCeilings,
  checkEscrowMinHoldSeconds,
  checkFeeSchedule,
  checkHttpsUrl,
  checkIdentityVendor,
  checkPaymentRequestMinLifetimeSeconds,
  checkPayoutAccountCoolingSeconds,
  checkPayoutFeeSchedule,
  checkProviderRoutes,
  checkPublicBaseUrl,
  checkSignInCodesPerHour,
  checkSmileIdIdTypes,
  checkSmsOriginationIdentity,
  checkSmsSegmentPriceCents,
  identityVendorOf,
  smileIdSettingVariables,
} from '#infra/stage-config.ts';
import { localStageName } from '#shared/stage.ts';

/**
 * The stage registry: every stage that may be deployed, declared in `cdk.json` under
 * `context.stages`. A stage's kind, not its name, decides whether it is production, and its settings
 * live here rather than on the command line, so a deploy that forgets a `-c` cannot reset them.
 */
export type StageKind = 'sandbox' | 'production';

export interface StageEntry {
  readonly name: string;
  readonly kind: StageKind;
  /** The account and region the stack is pinned to: a deploy with another account's credentials fails. */
  readonly account: string;
  readonly region: string;
  /** Subscribed to the stage's alarm topic. */
  readonly alarmEmail: string;
  /** Browser origins allowed to call the partner API cross-origin; only empty is accepted today. */
  readonly allowedOrigins: readonly string[];
  /** The variables every function of the stage gets: fees, ceilings, public URL, when set. */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * The concurrent executions the stage counts on: the account's Lambda quota, or the stage's
   * share of it when stages share an account. Sizes the background functions' budget.
   */
  readonly accountConcurrencyLimit: number;
}

/** The context key of the registry in cdk.json. */
export const registryContextKey = 'stages';

/** The local host's name wherever a stage is asked for (`--stage local`): never a deployed stage. */
export { localStageName };

/** Stage names become parts of resource names: lower-case letters, digits and hyphens. */
export const stageNamePattern = /^[a-z][a-z0-9-]*$/;

const settingVariables = {
  feeSchedule: { variable: 'FEE_SCHEDULE', check: checkFeeSchedule },
  payoutFeeSchedule: { variable: 'PAYOUT_FEE_SCHEDULE', check: checkPayoutFeeSchedule },
  collectionCeilings: { variable: 'COLLECTION_CEILINGS', check: checkCollectionCeilings },
  publicBaseUrl: { variable: 'PUBLIC_BASE_URL', check: checkPublicBaseUrl },
  smsOriginationIdentity: { variable: 'SMS_ORIGINATION_IDENTITY', check: checkSmsOriginationIdentity },
  /** Payment method → adapter (`wave`, `mtn`, `sandbox`); see providerRoutesOf for the defaults. */
  providerRoutes: { variable: 'PROVIDER_ROUTES', check: checkProviderRoutes },
  /** MTN's X-Target-Environment for the stage: `mtnivorycoast` in production, `sandbox` on MTN's sandbox. */
  mtnTargetEnvironment: { variable: 'MTN_TARGET_ENVIRONMENT', check: (text: string) => text },
  /** The providers' API base URLs, for a stage that talks to their sandboxes. */
  mtnApiUrl: { variable: 'MTN_API_URL', check: checkHttpsUrl },
  waveApiUrl: { variable: 'WAVE_API_URL', check: checkHttpsUrl },
  /** The shortest escrow hold a platform may ask for. */
  escrowMinHoldSeconds: { variable: 'ESCROW_MIN_HOLD_SECONDS', check: checkEscrowMinHoldSeconds },
  /** The dashboard's sign-in codes the whole stage sends in an hour (the cap against SMS pumping). */
  signInCodesPerHour: { variable: 'SIGN_IN_CODES_PER_HOUR', check: checkSignInCodesPerHour },
  /** The same, from one source address: raised where many phones share a carrier's addresses. */
  signInCodesPerAddressPerHour: {
    variable: 'SIGN_IN_CODES_PER_ADDRESS_PER_HOUR',
    check: checkSignInCodesPerHour,
  },
  /** The shortest lifetime a payment request's `expiresAt` may ask for. */
  paymentRequestMinLifetimeSeconds: {
    variable: 'PAYMENT_REQUEST_MIN_LIFETIME_SECONDS',
    check: checkPaymentRequestMinLifetimeSeconds,
  },
  /** How long a new payout account waits before it receives withdrawals (default 24 h). */
  payoutAccountCoolingSeconds: {
    variable: 'PAYOUT_ACCOUNT_COOLING_SECONDS',
    check: checkPayoutAccountCoolingSeconds,
  },
  /** The price of one SMS segment bought from a store's balance, in cents (default 2 500: 25 F CFA). */
  smsSegmentPriceCents: { variable: 'SMS_SEGMENT_PRICE_CENTS', check: checkSmsSegmentPriceCents },
  /** Requests per minute one `X-API-KEY-ID` may make before it is answered 429 (WAF, local host). */
  apiKeyRateLimitPerMinute: {
    variable: 'API_KEY_RATE_LIMIT_PER_MINUTE',
    check: checkApiKeyRateLimitPerMinute,
  },
  /**
   * Who checks owners' identities: `sandbox` (the default on sandbox stages) or `smileid` (the
   * default on production, which refuses the sandbox). Smile ID's partner id and key are the
   * stage's secret, filled by an operator (docs/operations/identity.md).
   */
  identityVendor: { variable: 'IDENTITY_VENDOR', check: checkIdentityVendor },
  /** Smile ID's API: production's (https://api.smileidentity.com/v1) unless set, its sandbox's say. */
  smileIdBaseUrl: { variable: smileIdSettingVariables.smileIdBaseUrl, check: checkHttpsUrl },
  /** Country → the ID type Smile ID looks up there; `{"CI": "NATIONAL_ID_NO_PHOTO"}` unless set. */
  smileIdIdTypes: { variable: smileIdSettingVariables.smileIdIdTypes, check: checkSmileIdIdTypes },
  /**
   * Smile ID's web script (its document + selfie capture, for the countries `smileIdIdTypes` does
   * not name): Smile ID's CDN (https://cdn.smileidentity.com/inline/v1/js/script.min.js) unless
   * set. The capture page's policy allows this URL's origin, on that page only.
   */
  smileIdWebScriptUrl: { variable: smileIdSettingVariables.smileIdWebScriptUrl, check: checkHttpsUrl },
} as const;

const knownFields = new Set([
  'kind',
  'account',
  'region',
  'alarmEmail',
  'allowedOrigins',
  'providerRouting',
  'accountConcurrencyLimit',
  ...Object.keys(settingVariables),
]);

export class StageRegistryError extends Error {}

/** The registry as cdk.json holds it, for the admin and smoke commands, which run outside the CDK app. */
export function readRegistryFile(): unknown {
  const cdkJson = JSON.parse(readFileSync(path.join(projectRoot, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context?.[registryContextKey];
}

/** The registry's stage names, for messages. */
function namesIn(registry: unknown): string[] {
  return typeof registry === 'object' && registry !== null ? Object.keys(registry) : [];
}

/**
 * The entry of `stage`, checked whole: an unknown stage, a missing field or a bad value is refused
 * with a message naming the stage and the field, before anything is built.
 */
export function stageEntry(registry: unknown, stage: string): StageEntry {
  if (typeof registry !== 'object' || registry === null || Array.isArray(registry)) {
    throw new StageRegistryError(
      `No stage registry: cdk.json must have context.${registryContextKey}, an object of stage entries`,
    );
  }
  if (stage === localStageName) {
    throw new StageRegistryError(`"${localStageName}" is the local host (npm start), not a deployable stage`);
  }
  const raw = (registry as Record<string, unknown>)[stage];
  if (raw === undefined) {
    throw new StageRegistryError(
      `Unknown stage "${stage}": add it to context.${registryContextKey} in cdk.json (known: ${namesIn(registry).join(', ') || 'none'})`,
    );
  }
  const fail = (message: string): never => {
    throw new StageRegistryError(`Stage "${stage}" in cdk.json: ${message}`);
  };
  if (!stageNamePattern.test(stage)) {
    fail(`the name must match ${stageNamePattern}, since it becomes part of resource names`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('the entry must be an object');
  const entry = raw as Record<string, unknown>;
  for (const field of Object.keys(entry)) {
    if (!knownFields.has(field)) fail(`unknown field ${field} (known: ${[...knownFields].join(', ')})`);
  }
  const { kind, account, region, alarmEmail, allowedOrigins, providerRouting, accountConcurrencyLimit } =
    entry;
  if (kind !== 'sandbox' && kind !== 'production') fail('kind must be "sandbox" or "production"');
  if (typeof account !== 'string' || !/^[0-9]{12}$/.test(account)) {
    fail('account must be a 12-digit AWS account id, as a string');
  }
  if (typeof region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-[0-9]$/.test(region)) {
    fail('region must be an AWS region such as eu-west-1');
  }
  if (typeof alarmEmail !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail)) {
    fail('alarmEmail must be an e-mail address: every alarm of the stage is sent there');
  }
  const origins = allowedOrigins ?? [];
  if (!Array.isArray(origins)) fail('allowedOrigins must be a list of https:// origins');
  for (const origin of origins as unknown[]) {
    if (typeof origin !== 'string' || !isHttpsOrigin(origin)) {
      fail(`allowedOrigins: ${JSON.stringify(origin)} is not an https:// origin (scheme and host, no path)`);
    }
  }
  // The partner API answers servers, and sends no CORS headers yet: an origin listed here would be
  // a promise the stage does not keep.
  if ((origins as unknown[]).length > 0) {
    fail(
      'allowedOrigins must be [] for now: the partner API sends no CORS headers, so no browser origin can call it',
    );
  }
  // Reserved for provider routing, which no code reads yet: refused rather than silently ignored.
  if (providerRouting !== undefined && !isEmptyObject(providerRouting)) {
    fail('providerRouting is reserved: the service routes every method to its one provider today');
  }
  let concurrencyLimit = defaultAccountConcurrencyLimit;
  if (accountConcurrencyLimit !== undefined) {
    try {
      concurrencyLimit = checkAccountConcurrencyLimit(accountConcurrencyLimit);
    } catch (error) {
      fail(`accountConcurrencyLimit: ${(error as Error).message}`);
    }
  }
  const sharing = stagesSharingProductionAccount(registry as Record<string, unknown>, stage, kind, account);
  if (sharing) fail(sharing);
  const environment: Record<string, string> = {};
  for (const [field, setting] of Object.entries(settingVariables)) {
    const given = entry[field];
    if (given === undefined) continue;
    const text = typeof given === 'string' ? given : JSON.stringify(given);
    try {
      environment[setting.variable] = setting.check(text);
    } catch (error) {
      fail(`${field}: ${(error as Error).message}`);
    }
  }
  try {
    const vendor = identityVendorOf(environment, kind === 'production');
    if (vendor) environment.IDENTITY_VENDOR = vendor;
  } catch (error) {
    fail((error as Error).message);
  }
  return {
    name: stage,
    kind: kind as StageKind,
    account: account as string,
    region: region as string,
    alarmEmail: alarmEmail as string,
    allowedOrigins: origins as string[],
    environment,
    accountConcurrencyLimit: concurrencyLimit,
  };
}

/**
 * Production is alone in its account: IoT Core's registry and topics, CloudWatch's metrics and
 * alarms, and Lambda's concurrency limit are the account's, so another stage beside it could reach
 * its devices, count into its alarms or take its concurrency, and credentials for one would reach
 * the other. Sandbox stages may share an account with each other. Checked whichever of the two is
 * built, so neither can be deployed beside the other.
 */
function stagesSharingProductionAccount(
  registry: Record<string, unknown>,
  stage: string,
  kind: unknown,
  account: unknown,
): string | undefined {
  const others = Object.entries(registry).filter(([name, entry]) => {
    if (name === stage || typeof entry !== 'object' || entry === null) return false;
    const other = entry as Record<string, unknown>;
    return other.account === account && (kind === 'production' || other.kind === 'production');
  });
  if (others.length === 0) return undefined;
  const names = others.map(([name]) => `"${name}"`).join(', ');
  return kind === 'production'
    ? `account ${String(account)} is also the account of ${names}: a production stage must have an AWS account of its own (IoT topics, metrics and concurrency are shared by a whole account)`
    : `account ${String(account)} is the account of the production stage ${names}: a production stage must have an AWS account of its own (IoT topics, metrics and concurrency are shared by a whole account)`;
}

function isHttpsOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.origin === text;
  } catch {
    return false;
  }
}

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
