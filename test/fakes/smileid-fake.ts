import { createHmac } from 'node:crypto';
import { type FakeAnswer, postCallback, startFakeServer } from '#test/fakes/fake-server.ts';

/**
 * Smile ID's v1 API as its published documentation and official SDK describe it, for Enhanced KYC
 * (https://docs.usesmileid.com/products/for-individuals-kyc/identity-lookup, the SDK
 * `smile-identity-core` 3.2.1): every request signed with `signature` = base64
 * HMAC-SHA256(api key, timestamp + partner_id + "sid_request") beside its `timestamp` (else 401,
 * code 2205); `POST /v1/async_id_verification` answers `{"success": true}` and later posts the
 * result to `callback_url`, signed the same way; a job id used twice is refused (2215), a missing
 * field too (2213); `POST /v1/job_status` answers the job's result, signed.
 *
 * The ID number's last digit chooses the result, as on Smile ID's sandbox
 * (https://docs.smileidentity.com/general/supported-id-types/test-data): 0 and 4 → 1012 (valid),
 * 1 → 1013 (not found), 2 → 1014 (wrong format), 3 → 1015 (the authority's database down).
 * Scripted through `/_fake/…`:
 * - `POST /_fake/callback {"job_id", "forge"?: true, "ResultCode"?}`: sends a job's result again
 *   (a duplicate), or signed with another key, or claiming another code (a forgery).
 */
export interface SmileIdFakeOptions {
  partnerId: string;
  apiKey: string;
  /** How long the authority takes before the result is posted. */
  answerDelayMs?: number;
  port?: number;
}

interface Job {
  partnerParams: { job_id: string; user_id: string; job_type: number };
  idInfo: Record<string, string>;
  callbackUrl: string;
  smileJobId: string;
  resultCode?: string;
}

const resultTexts: Record<string, string> = {
  '1012': 'ID Number Validated',
  '1013': 'Unable to Validate ID',
  '1014': 'Error - Unsupported ID number format',
  '1015': 'Error - Queried Database Unavailable',
};
const byLastDigit: Record<string, string> = {
  '0': '1012',
  '1': '1013',
  '2': '1014',
  '3': '1015',
  '4': '1012',
};
const required = [
  'partner_id',
  'timestamp',
  'signature',
  'country',
  'id_type',
  'id_number',
  'partner_params',
];

export async function startSmileIdFake(options: SmileIdFakeOptions) {
  const jobs = new Map<string, Job>();
  const callbacksSent: { jobId: string; status: number }[] = [];
  let sequence = 0;

  const sign = (timestamp: string, key = options.apiKey) =>
    createHmac('sha256', key)
      .update(timestamp)
      .update(options.partnerId)
      .update('sid_request')
      .digest('base64');
  const signed = (key?: string) => {
    const timestamp = new Date().toISOString();
    return { timestamp, signature: sign(timestamp, key) };
  };
  const authorized = (body: Record<string, unknown>) =>
    body.partner_id === options.partnerId &&
    typeof body.timestamp === 'string' &&
    typeof body.signature === 'string' &&
    body.signature === sign(body.timestamp);
  const refused = (status: number, code: string, error: string): FakeAnswer => ({
    status,
    body: { code, error, success: false },
  });

  /** The result as Smile ID posts it and its job status carries it. */
  function resultOf(job: Job, code = job.resultCode ?? '') {
    return {
      JSONVersion: '1.0.0',
      SmileJobID: job.smileJobId,
      PartnerParams: job.partnerParams,
      ResultType: 'ID Verification',
      ResultText: resultTexts[code] ?? 'Unknown',
      ResultCode: code,
      IsFinalResult: 'true',
      Actions: {
        Verify_ID_Number: code === '1012' ? 'Verified' : 'Not Verified',
        Return_Personal_Info: code === '1012' ? 'Returned' : 'Not Returned',
      },
      Country: job.idInfo.country,
      IDType: job.idInfo.id_type,
      IDNumber: job.idInfo.id_number,
      FullName: code === '1012' ? `${job.idInfo.first_name} ${job.idInfo.last_name}` : 'Not Available',
      DOB: code === '1012' ? job.idInfo.dob : 'Not Available',
      Source: 'ID API',
    };
  }

  async function sendResult(job: Job, claim?: { forge?: boolean; ResultCode?: string }) {
    const body = JSON.stringify({
      ...resultOf(job, claim?.ResultCode),
      ...signed(claim?.forge ? 'not-the-api-key' : undefined),
    });
    const status = await postCallback(job.callbackUrl, body, {});
    callbacksSent.push({ jobId: job.partnerParams.job_id, status });
  }

  const server = await startFakeServer(async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (request.path === '/_fake/callback' && request.method === 'POST') {
      const job = jobs.get(String(body.job_id));
      if (!job) return { status: 404 };
      await sendResult(job, {
        forge: body.forge === true,
        ResultCode: body.ResultCode as string | undefined,
      });
      return { status: 200, body: { sent: callbacksSent.at(-1) } };
    }
    if (request.path === '/_fake/state') return { status: 200, body: { callbacksSent } };
    if (request.method !== 'POST') return { status: 404 };
    if (request.path === '/v1/async_id_verification') {
      if (!authorized(body)) return refused(401, '2205', 'You are not authorized to do that');
      if (required.some((field) => body[field] === undefined || body[field] === '') || !body.callback_url)
        return refused(400, '2213', 'Missing a required parameter');
      const partnerParams = body.partner_params as Job['partnerParams'];
      if (!partnerParams?.job_id || !partnerParams.user_id || Number(partnerParams.job_type) !== 5)
        return refused(400, '2212', 'Invalid job type or partner params');
      if (jobs.has(partnerParams.job_id)) return refused(400, '2215', 'Job already exists');
      const idNumber = String(body.id_number);
      const job: Job = {
        partnerParams,
        idInfo: Object.fromEntries(
          ['country', 'id_type', 'id_number', 'first_name', 'last_name', 'dob'].map((field) => [
            field,
            String(body[field] ?? ''),
          ]),
        ),
        callbackUrl: String(body.callback_url),
        smileJobId: String(++sequence).padStart(10, '0'),
      };
      jobs.set(partnerParams.job_id, job);
      setTimeout(() => {
        job.resultCode = byLastDigit[idNumber.slice(-1)] ?? '1014';
        void sendResult(job);
      }, options.answerDelayMs ?? 200);
      return { status: 200, body: { success: true } };
    }
    if (request.path === '/v1/job_status') {
      if (!authorized(body)) return refused(401, '2205', 'You are not authorized to do that');
      const job = jobs.get(String(body.job_id));
      if (!job || job.partnerParams.user_id !== body.user_id) return refused(400, '2216', 'Job not found');
      const complete = job.resultCode !== undefined;
      return {
        status: 200,
        body: {
          ...signed(),
          job_complete: complete,
          job_success: job.resultCode === '1012',
          code: complete ? '2302' : '2314',
          result: complete ? resultOf(job) : 'Job is still processing',
          history: null,
          image_links: null,
        },
      };
    }
    return { status: 404 };
  }, options.port);

  return { ...server, jobs, callbacksSent };
}

export type SmileIdFake = Awaited<ReturnType<typeof startSmileIdFake>>;
