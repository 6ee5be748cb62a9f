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

/**
 * The owner's check where Smile ID looks up no ID number (the countries outside SMILE_ID_ID_TYPES):
 * Document Verification, job type 6 (the SDK's `JOB_TYPE.DOCUMENT_VERIFICATION`), through Smile
 * ID's Hosted Web Integration. The service asks a web token for the job (`POST /v1/token`, the body
 * the SDK's `get_web_token` sends: user_id, job_id, product, callback_url, partner_id and the
 * signature), and the page hands it to Smile ID's web script, whose own UI captures the document
 * and a selfie; the result comes to the same callback. The product's name, `doc_verification`, is
 * the one Smile ID's web integration takes (its own page,
 * smileidentity/web-client packages/embed/cypress/pages/document-verification.html, and the
 * products its docs list for `get_web_token`:
 * https://docs.usesmileid.com/integration-options/server-to-server/ruby/generate-token-for-web-integration).
 */
export const smileIdDocumentJobType = 6;
export const smileIdDocumentProduct = 'doc_verification';

/**
 * Smile ID's web script, as its docs load it
 * (https://docs.usesmileid.com/integration-options/web-mobile-web/web-integration); a stage may
 * pin another (`SMILE_ID_WEB_SCRIPT_URL`, the stand-in's on the laptop).
 */
export const defaultSmileIdWebScriptUrl = 'https://cdn.smileidentity.com/inline/v1/js/script.min.js';
export const smileIdWebScriptUrl = () => process.env.SMILE_ID_WEB_SCRIPT_URL || defaultSmileIdWebScriptUrl;

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

/**
 * Which check an owner of this country gets: Enhanced KYC where the stage maps the country to an
 * ID type Smile ID looks up, document + selfie everywhere else.
 */
export const smileIdProductFor = (country: UemoaCountry): 'enhanced_kyc' | 'doc_verification' =>
  smileIdIdTypeOf(country) ? 'enhanced_kyc' : smileIdDocumentProduct;

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

export interface WebTokenRequest {
  /** New for each try; Smile ID's result names it (and its user id, the business). */
  jobId: string;
  userId: string;
  callbackUrl: string;
}

/** What the page hands Smile ID's web script. */
export interface SmileIdWebSession {
  token: string;
  partnerId: string;
  product: typeof smileIdDocumentProduct;
  callbackUrl: string;
  /** `sandbox` unless the stage speaks to Smile ID's production API (`live`). */
  environment: 'sandbox' | 'live';
  scriptUrl: string;
}

/**
 * A web token for one Document Verification job (`POST /v1/token`, as the SDK's `get_web_token`
 * asks it). The token carries the job and user ids and the callback; the page's script starts
 * nothing without it.
 */
export async function requestDocumentWebToken(request: WebTokenRequest): Promise<SmileIdWebSession> {
  const { partnerId, apiKey } = await credentials();
  const answer = await callProvider(
    'smileid',
    {
      method: 'POST',
      url: `${baseUrl()}/token`,
      headers: {},
      body: {
        user_id: request.userId,
        job_id: request.jobId,
        product: smileIdDocumentProduct,
        callback_url: request.callbackUrl,
        partner_id: partnerId,
        ...new Signature(partnerId, apiKey).generate_signature(),
      },
      // A token asked twice is two tokens for the same job: harmless, the job runs once.
      retryable: true,
    },
    defaultCallPolicy,
  );
  const body = answer.body as { token?: unknown; code?: string } | undefined;
  if (answer.status !== 200 || typeof body?.token !== 'string' || body.token === '') {
    logger.warn('smile id web token not given', { status: answer.status, code: body?.code });
    throw new ProviderRefused(`Smile ID gave no web token (${body?.code ?? answer.status})`);
  }
  return {
    token: body.token,
    partnerId,
    product: smileIdDocumentProduct,
    callbackUrl: request.callbackUrl,
    environment: new URL(baseUrl()).hostname === 'api.smileidentity.com' ? 'live' : 'sandbox',
    scriptUrl: smileIdWebScriptUrl(),
  };
}

/** What a verified result says, in the service's words. */
export type SmileIdOutcome =
  | { status: 'approved' }
  | { status: 'rejected'; reason: string }
  | { status: 'retry'; reason: string }
  | { status: 'pending' };

export interface SmileIdResult {
  jobId: string;
  /** Enhanced KYC's jobs carry it in their partner params; a web token's job cannot. */
  verificationId: string | undefined;
  /** The business, the job's `user_id`. */
  userId: string;
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
 *
 * Document Verification's (job type 6), only the codes a Smile ID source states:
 * - 0810, the document verified: Smile ID's own Android SDK parses a job type 6 result with
 *   `"ResultCode": "0810", "ResultText": "Document Verified After Human Review"`
 *   (smileidentity/android, JobResultAdapterTest) → approved;
 * - 0907, "FAIL - Possible Spoof - Strict Setting", Rejected
 *   (https://docs.smileidentity.com/results/result-and-error-codes, general failures) → rejected,
 *   reason `document_not_verified` (the owner starts again with its original document);
 * - 0001, "ID Card image unusable" / "Selfie image unusable"
 *   (https://docs.usesmileid.com/further-reading/result-codes) → another try, reason
 *   `capture_unusable` (the owner captures again).
 * Any other code leaves the check pending and is logged: a code no source of Smile ID's names is
 * an operator's to read in Smile ID's portal, not one to guess an outcome from.
 */
export function outcomeOfResultCode(code: string, jobType: number = smileIdJobType): SmileIdOutcome {
  if (jobType === smileIdDocumentJobType) {
    switch (code) {
      case '0810':
        return { status: 'approved' };
      case '0907':
        return { status: 'rejected', reason: 'document_not_verified' };
      case '0001':
        return { status: 'retry', reason: 'capture_unusable' };
      default:
        logger.warn('smile id document verification result code not mapped: left pending', { code });
        return { status: 'pending' };
    }
  }
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
    PartnerParams?: { job_id?: unknown; user_id?: unknown; job_type?: unknown; verification_id?: unknown };
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
  const userId = body.PartnerParams?.user_id;
  const verificationId = body.PartnerParams?.verification_id;
  if (
    typeof jobId !== 'string' ||
    typeof userId !== 'string' ||
    (verificationId !== undefined && typeof verificationId !== 'string') ||
    typeof body.ResultCode !== 'string'
  )
    return refused('not a result of ours');
  return {
    jobId,
    verificationId,
    userId,
    smileJobId: String(body.SmileJobID ?? ''),
    resultCode: body.ResultCode,
    outcome: outcomeOfResultCode(body.ResultCode, Number(body.PartnerParams?.job_type ?? smileIdJobType)),
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
        result?: { ResultCode?: unknown; PartnerParams?: { job_type?: unknown } } | string;
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
  const result = typeof status.result === 'object' ? status.result : undefined;
  const code = result?.ResultCode;
  if (status.job_complete !== true || typeof code !== 'string') return undefined;
  return outcomeOfResultCode(code, Number(result?.PartnerParams?.job_type ?? smileIdJobType));
}
