import signatureModule from 'smile-identity-core/dist/src/signature.js';
import { secretValue } from '#shared/aws/secrets.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { ProviderRefused, ProviderUnavailable } from '#shared/errors/providers.ts';
import { smileIdSecretFields, smileIdSecretVariable } from '#shared/identity/smile-id-secret.ts';
import { logger } from '#shared/logger.ts';
import { jsonSecretProblems } from '#shared/providers/adapters.ts';
import { callProvider, defaultCallPolicy } from '#shared/providers/provider-http.ts';

/**
 * Smile ID (https://docs.usesmileid.com), the identity vendor of the zone, v1 API. Requests and
 * answers are signed with its official Node SDK's `Signature` (`smile-identity-core`); the HTTP is
 * the service's own (`callProvider`: timeouts, bounded retries, the stage's base URL as given),
 * with the bodies the SDK's `IDApi` and `get_job_status` send: the SDK's HTTP client (axios and
 * its MIME table) would double the two functions' bundles and force every base URL to https. The owner's check is Enhanced KYC (job type 5): the
 * ID number, names and date of birth the owner typed, looked up at the ID authority
 * (https://docs.usesmileid.com/products/for-individuals-kyc/identity-lookup), asked
 * asynchronously (`/v1/async_id_verification`); Smile ID posts the result to our callback, signed
 * with `signature` = base64 HMAC-SHA256(api key, timestamp + partner id + "sid_request") over the
 * `timestamp` beside it (https://docs.usesmileid.com/integration-options/rest-api/signing-your-api-request/generate-signature).
 * That signature does not cover the body (a captured one could carry another result), so a
 * callback is only a hint: the result believed is the job's status, asked of Smile ID with a
 * signed request and answer (`/v1/job_status`, https://docs.usesmileid.com/integration-options/rest-api/utilities).
 *
 * Stage settings: SMILE_ID_BASE_URL (default production, https://api.smileidentity.com/v1; the
 * sandbox is https://testapi.smileidentity.com/v1), SMILE_ID_PARTNER_ID, and the API key in
 * SMILE_ID_API_KEY (or the secret SMILE_ID_API_KEY_ARN). SMILE_ID_ID_TYPES (JSON, country →
 * id_type) says which document each country's owners give; Côte d'Ivoire is the zone's country
 * Smile ID looks up by number (its national ID, without photo).
 */
export const smileIdJobType = 5;

// A CommonJS default export: Node's ESM loader hands the module object (the class is its
// `default`), bundlers and vitest hand the class.
const Signature =
  (signatureModule as unknown as { default?: typeof signatureModule }).default ?? signatureModule;

/** What the SDK says of itself in every request (its `sdkVersionInfo`). */
const sdkVersion = { source_sdk: 'javascript', source_sdk_version: '3.2.1' };

/** The ID type looked up per country, unless the stage says otherwise. */
export const defaultSmileIdIdTypes: Partial<Record<UemoaCountry, string>> = { CI: 'NATIONAL_ID_NO_PHOTO' };

/** How old a signed callback may be: a replay of an old one is refused. */
const callbackFreshnessMs = 60 * 60 * 1000;

interface SmileIdCredentials {
  partnerId: string;
  apiKey: string;
}

const baseUrl = () =>
  (process.env.SMILE_ID_BASE_URL ?? 'https://api.smileidentity.com/v1').replace(/\/$/, '');

/**
 * The partner id and API key: as two variables on the local host (`SMILE_ID_PARTNER_ID`, and
 * `SMILE_ID_API_KEY` or the secret `SMILE_ID_API_KEY_ARN`), from the stage's secret otherwise.
 */
async function credentials(): Promise<SmileIdCredentials> {
  const partnerId = process.env.SMILE_ID_PARTNER_ID;
  if (partnerId) return { partnerId, apiKey: await secretValue('SMILE_ID_API_KEY') };
  if (!process.env[smileIdSecretVariable] && !process.env[`${smileIdSecretVariable}_ARN`]) {
    throw new Error(
      `neither SMILE_ID_PARTNER_ID nor ${smileIdSecretVariable}(_ARN) is set: the stage has no Smile ID account`,
    );
  }
  const text = await secretValue(smileIdSecretVariable);
  const problems = jsonSecretProblems(smileIdSecretFields, text);
  if (problems.length > 0) {
    throw new Error(
      `Smile ID credentials unusable (${problems.join('; ')}): put them again with \`npm run admin -- put-provider-secret --provider smileid\``,
    );
  }
  const parsed = JSON.parse(text) as SmileIdCredentials;
  return { partnerId: parsed.partnerId, apiKey: parsed.apiKey };
}

export function smileIdIdTypeOf(country: UemoaCountry): string | undefined {
  const configured = process.env.SMILE_ID_ID_TYPES
    ? (JSON.parse(process.env.SMILE_ID_ID_TYPES) as Partial<Record<UemoaCountry, string>>)
    : defaultSmileIdIdTypes;
  return configured[country];
}

export interface EnhancedKycRequest {
  /** New for each try (Smile ID refuses a job id twice); its result names it. */
  jobId: string;
  /** Our verification's id, carried in the partner params, which the result gives back. */
  verificationId: string;
  /** The business: Smile ID's `user_id`. */
  userId: string;
  country: UemoaCountry;
  idNumber: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  callbackUrl: string;
}

/** Asks Smile ID to look the owner up; its result comes to `callbackUrl`. */
export async function submitEnhancedKyc(request: EnhancedKycRequest): Promise<void> {
  const idType = smileIdIdTypeOf(request.country);
  if (!idType)
    throw new ProviderRefused(`Smile ID looks up no ID number of ${request.country} on this stage`);
  const { partnerId, apiKey } = await credentials();
  const answer = await callProvider(
    'smileid',
    {
      method: 'POST',
      url: `${baseUrl()}/async_id_verification`,
      headers: {},
      // As the SDK's IDApi.submitAsyncjob sends it (IDApi.createVerificationRequest).
      body: {
        partner_id: partnerId,
        partner_params: {
          job_id: request.jobId,
          user_id: request.userId,
          job_type: smileIdJobType,
          verification_id: request.verificationId,
        },
        country: request.country,
        id_type: idType,
        id_number: request.idNumber,
        first_name: request.firstName,
        last_name: request.lastName,
        dob: request.dateOfBirth,
        ...new Signature(partnerId, apiKey).generate_signature(),
        ...sdkVersion,
        callback_url: request.callbackUrl,
      },
      // A job id Smile ID already has is refused (2215): a retry of a lost answer is safe.
      retryable: true,
    },
    defaultCallPolicy,
  );
  const body = answer.body as { success?: boolean; code?: string } | undefined;
  if (answer.status === 200 && body?.success === true) return;
  // 2215: a job already exists under this id (our retry of one whose answer was lost): it runs.
  if (body?.code === '2215') return;
  logger.warn('smile id job not taken', { status: answer.status, code: body?.code });
  throw new ProviderRefused(`Smile ID refused the job (${body?.code ?? answer.status})`);
}

/** What a verified result says, in the service's words. */
export type SmileIdOutcome =
  | { status: 'approved' }
  | { status: 'rejected'; reason: string }
  | { status: 'retry'; reason: string }
  | { status: 'pending' };

export interface SmileIdResult {
  jobId: string;
  verificationId: string;
  smileJobId: string;
  resultCode: string;
  outcome: SmileIdOutcome;
}

/**
 * Enhanced KYC's result codes (https://docs.usesmileid.com/further-reading/result-codes): 1012 the
 * number is valid; 1013 the authority has no such number (rejected: the owner can check what it
 * typed with its document); 1014 the number is not in the document's format (try again); 1015
 * the authority's database is down (Smile ID answers again later: still pending); 1016 the product
 * is not active on the account (an operator's matter: pending, logged).
 */
export function outcomeOfResultCode(code: string): SmileIdOutcome {
  switch (code) {
    case '1012':
      return { status: 'approved' };
    case '1013':
      return { status: 'rejected', reason: 'identity_not_found' };
    case '1014':
      return { status: 'retry', reason: 'id_number_format' };
    default:
      return { status: 'pending' };
  }
}

/**
 * The result Smile ID posted, if its signature holds and it is fresh; undefined otherwise (a
 * forgery, a replay, a body that is not a result).
 */
export async function verifiedSmileIdResult(
  rawBody: string,
  now = Date.now(),
): Promise<SmileIdResult | undefined> {
  const refused = (why: string) => {
    logger.warn('smile id result refused', { why });
    return undefined;
  };
  let body: {
    signature?: unknown;
    timestamp?: unknown;
    ResultCode?: unknown;
    SmileJobID?: unknown;
    PartnerParams?: { job_id?: unknown; verification_id?: unknown };
  };
  try {
    body = JSON.parse(rawBody);
  } catch {
    return refused('not JSON');
  }
  const { signature, timestamp } = body;
  if (typeof signature !== 'string' || typeof timestamp !== 'string')
    return refused('no signature or timestamp');
  const at = Date.parse(timestamp);
  if (!Number.isFinite(at) || Math.abs(now - at) > callbackFreshnessMs)
    return refused('timestamp not within the hour');
  const { partnerId, apiKey } = await credentials();
  if (!new Signature(partnerId, apiKey).confirm_signature(timestamp, signature))
    return refused('signature does not hold');
  const jobId = body.PartnerParams?.job_id;
  const verificationId = body.PartnerParams?.verification_id;
  if (typeof jobId !== 'string' || typeof verificationId !== 'string' || typeof body.ResultCode !== 'string')
    return refused('not a result of ours');
  return {
    jobId,
    verificationId,
    smileJobId: String(body.SmileJobID ?? ''),
    resultCode: body.ResultCode,
    outcome: outcomeOfResultCode(body.ResultCode),
  };
}

/**
 * The job's result as Smile ID's job status gives it (its answer's signature checked by the SDK):
 * undefined while the job is not complete.
 */
export async function confirmedSmileIdOutcome(
  jobId: string,
  userId: string,
): Promise<SmileIdOutcome | undefined> {
  const { partnerId, apiKey } = await credentials();
  const signature = new Signature(partnerId, apiKey);
  // As the SDK's get_job_status asks it, and checks its answer's signature.
  const answer = await callProvider(
    'smileid',
    {
      method: 'POST',
      url: `${baseUrl()}/job_status`,
      headers: {},
      body: {
        user_id: userId,
        job_id: jobId,
        partner_id: partnerId,
        history: false,
        image_links: false,
        ...signature.generate_signature(),
      },
      retryable: true,
    },
    defaultCallPolicy,
  );
  const status = answer.body as
    | {
        timestamp?: unknown;
        signature?: unknown;
        job_complete?: boolean;
        result?: { ResultCode?: unknown } | string;
      }
    | undefined;
  const signed =
    typeof status?.timestamp === 'string' &&
    typeof status.signature === 'string' &&
    signature.confirm_signature(status.timestamp, status.signature);
  if (answer.status !== 200 || !signed) {
    logger.warn('smile id job status not read', { jobId, status: answer.status, signed });
    throw new ProviderUnavailable('Smile ID did not answer the job status; it will call back again');
  }
  const code = typeof status.result === 'object' ? status.result?.ResultCode : undefined;
  if (status.job_complete !== true || typeof code !== 'string') return undefined;
  return outcomeOfResultCode(code);
}
