import { createHmac, randomUUID } from 'node:crypto';
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
 * Document Verification (job type 6) through the Hosted Web Integration: `POST /v1/token` (signed,
 * as the SDK's `get_web_token` asks it: user_id, job_id, product, callback_url) answers
 * `{"success": true, "token"}` for a job of its own; a stand-in of Smile ID's web script is served
 * at `/web/script.js` (the host's `SMILE_ID_WEB_SCRIPT_URL` points at it). Called as Smile ID's
 * (`SmileIdentity({token, product, callback_url, environment, partner_details, onSuccess, onClose,
 * onError})`), it opens a frame of the fake's own origin, `/web/capture`, whose "capture" button
 * stands for the document and selfie photos: the fake then posts the signed result of the token's
 * job to its callback and the script calls `onSuccess`. The result is 0810 (document verified)
 * unless the test chose another for the business (`POST /_fake/document_result {"user_id",
 * "ResultCode"}`: 0907 rejected, 0001 photos unusable, as outcomeOfResultCode cites them).
 *
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
  /** A web token's job: its product, and whether the stand-in's capture was sent. */
  product?: string;
  captured?: boolean;
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
/** Document Verification's texts (the sources shared/identity/smile-id.ts cites). */
const documentResultTexts: Record<string, string> = {
  '0810': 'Document Verified',
  '0907': 'FAIL - Possible Spoof - Strict Setting',
  '0001': 'ID Card image unusable',
};
const webProducts = ['doc_verification', 'enhanced_kyc', 'biometric_kyc', 'smartselfie', 'authentication'];

/**
 * The stand-in of Smile ID's web script: `SmileIdentity(config)` opens the fake's capture frame for
 * the token and calls the config's handlers as the frame says.
 */
const webScript = `(function () {
  var origin = new URL(document.currentScript.src).origin;
  window.SmileIdentity = function (config) {
    var frame = document.createElement('iframe');
    frame.title = 'Smile ID';
    frame.setAttribute('allow', 'camera');
    frame.style.cssText = 'width:100%;min-height:240px;border:0';
    frame.src = origin + '/web/capture?' + new URLSearchParams({
      token: config.token,
      product: config.product,
      callback_url: config.callback_url,
      partner_id: (config.partner_details || {}).partner_id || ''
    });
    window.addEventListener('message', function (event) {
      if (event.origin !== origin || !event.data) return;
      if (event.data.smileIdFake === 'success' && config.onSuccess) config.onSuccess();
      if (event.data.smileIdFake === 'close' && config.onClose) config.onClose();
      if (event.data.smileIdFake === 'error' && config.onError) config.onError({ message: event.data.message });
    });
    document.body.appendChild(frame);
  };
})();`;

const capturePage = (query: URLSearchParams) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Smile ID (stand-in)</title></head>
<body>
<p>Stand-in of Smile ID's capture: document, then selfie.</p>
<button type="button" id="capture">Capture document and selfie</button>
<button type="button" id="close">Close</button>
<script>
var query = ${JSON.stringify(Object.fromEntries(query)).replace(/</g, '\\u003c')};
document.getElementById('close').onclick = function () { parent.postMessage({ smileIdFake: 'close' }, '*'); };
document.getElementById('capture').onclick = function () {
  fetch('/web/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(query) })
    .then(function (answer) { return answer.json().then(function (body) { return { ok: answer.ok, body: body }; }); })
    .then(function (sent) {
      parent.postMessage(sent.ok ? { smileIdFake: 'success' } : { smileIdFake: 'error', message: sent.body.error }, '*');
    });
};
</script>
</body></html>`;
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
  /** Web token → its job's id. */
  const tokens = new Map<string, string>();
  /** The Document Verification result chosen per business (user id); 0810 otherwise. */
  const documentResults = new Map<string, string>();
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
    if (job.partnerParams.job_type === 6) {
      return {
        JSONVersion: '1.0.0',
        SmileJobID: job.smileJobId,
        PartnerParams: job.partnerParams,
        ResultType: 'Document Verification',
        ResultText: documentResultTexts[code] ?? 'Unknown',
        ResultCode: code,
        IsFinalResult: 'true',
        Actions: {
          Liveness_Check: code === '0810' ? 'Passed' : 'Failed',
          Verify_Document: code === '0810' ? 'Passed' : 'Failed',
          Selfie_To_ID_Card_Compare: code === '0810' ? 'Completed' : 'Not Applicable',
        },
        Country: 'SN',
        IDType: 'NATIONAL_ID',
        Source: 'WebAPI',
      };
    }
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
    if (request.path === '/_fake/document_result' && request.method === 'POST') {
      documentResults.set(String(body.user_id), String(body.ResultCode));
      return { status: 200, body: {} };
    }
    if (request.path === '/_fake/state') return { status: 200, body: { callbacksSent } };
    if (request.path === '/web/script.js' && request.method === 'GET')
      return { status: 200, body: webScript, headers: { 'content-type': 'text/javascript; charset=utf-8' } };
    if (request.path === '/web/capture' && request.method === 'GET')
      return { status: 200, body: capturePage(request.query) };
    if (request.path === '/web/submit' && request.method === 'POST') {
      // What Smile ID's own frame sends once the photos are taken: the token names the job.
      const job = jobs.get(tokens.get(String(body.token)) ?? '');
      if (!job) return refused(401, '2205', 'Unknown or expired token');
      if (body.product !== job.product || body.callback_url !== job.callbackUrl)
        return refused(400, '2213', 'The web integration was configured unlike its token');
      if (body.partner_id !== options.partnerId) return refused(400, '2213', 'Wrong partner_id');
      if (job.captured) return refused(400, '2215', 'Job already exists');
      job.captured = true;
      setTimeout(() => {
        job.resultCode = documentResults.get(job.partnerParams.user_id) ?? '0810';
        void sendResult(job);
      }, options.answerDelayMs ?? 200);
      return { status: 200, body: { success: true } };
    }
    if (request.method !== 'POST') return { status: 404 };
    if (request.path === '/v1/token') {
      if (!authorized(body)) return refused(401, '2205', 'You are not authorized to do that');
      const missing = ['user_id', 'job_id', 'product', 'callback_url'].find((field) => !body[field]);
      if (missing) return refused(400, '2213', `Missing a required parameter: ${missing}`);
      if (!webProducts.includes(String(body.product))) return refused(400, '2204', 'Unknown product');
      const jobId = String(body.job_id);
      if (jobs.has(jobId)) return refused(400, '2215', 'Job already exists');
      jobs.set(jobId, {
        partnerParams: { job_id: jobId, user_id: String(body.user_id), job_type: 6 },
        product: String(body.product),
        idInfo: {},
        callbackUrl: String(body.callback_url),
        smileJobId: String(++sequence).padStart(10, '0'),
      });
      const token = randomUUID();
      tokens.set(token, jobId);
      return { status: 200, body: { success: true, token } };
    }
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
          job_success: job.resultCode === '1012' || job.resultCode === '0810',
          code: complete ? '2302' : '2314',
          result: complete ? resultOf(job) : 'Job is still processing',
          history: null,
          image_links: null,
        },
      };
    }
    return { status: 404 };
  }, options.port);

  return { ...server, jobs, tokens, callbacksSent, webScriptUrl: `${server.url}/web/script.js` };
}

export type SmileIdFake = Awaited<ReturnType<typeof startSmileIdFake>>;
