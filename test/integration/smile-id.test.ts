import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusiness, getBusiness } from '#shared/data/business.ts';
import { getVerification } from '#shared/data/compliance-verification.ts';
import { createStore } from '#shared/data/store.ts';
import { outcomeOfResultCode } from '#shared/identity/smile-id.ts';
import {
  completeVerification,
  startDocumentCheck,
  startOwnVerification,
  vendorProblemOf,
  verificationPageView,
} from '#shared/operations/compliance-verifications.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { type SmileIdFake, startSmileIdFake } from '#test/fakes/smileid-fake.ts';
import { startCallbackBridge } from '#test/support/callback-bridge.ts';
import { eventually } from '#test/support/eventually.ts';
import { fakeControl } from '#test/support/fake-control.ts';
import { actingOwnerOf, merchant } from '#test/support/fixtures.ts';

/**
 * An owner's identity check through Smile ID (Enhanced KYC), against its contract fake over HTTP:
 * the details go to Smile ID under the verification's id, its signed result comes back to the
 * service's route over HTTP, and only the job status Smile ID answers moves the business's level.
 */
const partnerId = '085';
const apiKey = randomUUID();
let smileId: SmileIdFake;
let bridge: Awaited<ReturnType<typeof startCallbackBridge>>;

beforeAll(async () => {
  smileId = await startSmileIdFake({ partnerId, apiKey, answerDelayMs: 100 });
  bridge = await startCallbackBridge();
  Object.assign(process.env, {
    IDENTITY_VENDOR: 'smileid',
    SMILE_ID_BASE_URL: `${smileId.url}/v1`,
    SMILE_ID_PARTNER_ID: partnerId,
    SMILE_ID_API_KEY: apiKey,
  });
});

afterAll(async () => {
  delete process.env.IDENTITY_VENDOR;
  await smileId.close();
  await bridge.close();
});

const control = fakeControl(() => smileId.url);

async function newOwner() {
  const m = await merchant({ verificationLevel: 0 });
  const owner = actingOwnerOf(m);
  const verification = await startOwnVerification(owner, bridge.url);
  return { m, verification };
}

/** The verification once Smile ID's result has come and been applied (or as it is after 15 s). */
const decided = (id: string) =>
  eventually(
    () => getVerification(id),
    (found) => found?.status !== 'pending' || found.retryReason !== undefined,
  );

const details = (idNumber: string) => ({
  firstName: 'Awa',
  lastName: 'Traoré',
  idNumber,
  dateOfBirth: '1990-03-27',
});

describe("an owner's identity checked by Smile ID", () => {
  it('submits the details, waits, and reaches level 1 when Smile ID validates the number', async () => {
    const { m, verification } = await newOwner();
    const submitted = await completeVerification(verification.id, details('CI0012345670'), bridge.url);
    expect(submitted).toMatchObject({ status: 'pending', submittedAt: expect.any(String) });
    // What Smile ID received: Enhanced KYC of an Ivorian national ID, a job of its own for this try.
    const jobId = submitted.vendorJobId as string;
    const job = smileId.jobs.get(jobId);
    expect(job?.partnerParams).toEqual({
      job_id: jobId,
      user_id: m.business.id,
      job_type: 5,
      verification_id: verification.id,
    });
    expect(job?.idInfo).toMatchObject({ country: 'CI', id_type: 'NATIONAL_ID_NO_PHOTO', dob: '1990-03-27' });
    expect(job?.callbackUrl).toBe(`${bridge.url}/identity_callbacks/smileid`);
    expect(await decided(verification.id)).toMatchObject({ status: 'approved' });
    expect((await getBusiness(m.business.id))?.verificationLevel).toBe(1);
    // The same result again changes nothing.
    await control('/callback', { job_id: jobId });
    expect(bridge.answered.at(-1)).toMatchObject({
      status: 200,
      body: expect.stringContaining('already_completed'),
    });
  });

  it('rejects with the reason the owner can act on when the authority has no such number', async () => {
    const { m, verification } = await newOwner();
    await completeVerification(verification.id, details('CI0012345671'), bridge.url);
    expect(await decided(verification.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'identity_not_found',
    });
    expect((await getBusiness(m.business.id))?.verificationLevel).toBe(0);
  });

  it('asks for another try when the number is not in the format, then approves the corrected one', async () => {
    const { m, verification } = await newOwner();
    const first = await completeVerification(verification.id, details('CI0012345672'), bridge.url);
    expect(await decided(verification.id)).toMatchObject({
      status: 'pending',
      retryReason: 'id_number_format',
    });
    // The owner corrects the number: a job of its own (Smile ID refuses a job id twice).
    const second = await completeVerification(verification.id, details('CI0012345670'), bridge.url);
    expect(second.vendorJobId).not.toBe(first.vendorJobId);
    // The first try's retry reason may still be on the record until the second's result lands.
    const approved = await eventually(
      () => getVerification(verification.id),
      (found) => found?.status !== 'pending',
    );
    expect(approved).toMatchObject({ status: 'approved' });
    expect((await getBusiness(m.business.id))?.verificationLevel).toBe(1);
    // The first try's result, sent late again, decides nothing more.
    await control('/callback', { job_id: first.vendorJobId });
    expect(bridge.answered.at(-1)).toMatchObject({
      status: 200,
      body: expect.stringContaining('already_completed'),
    });
  });

  it('moves nothing on a forged result, nor on one that claims what the job status does not say', async () => {
    const { m, verification } = await newOwner();
    // The authority is down (1015): Smile ID's result leaves the check pending.
    const { vendorJobId } = await completeVerification(verification.id, details('CI0012345673'), bridge.url);
    const sent = await eventually(
      () => smileId.callbacksSent.some((c) => c.jobId === vendorJobId),
      (found) => found,
    );
    expect(sent).toBe(true);
    // Signed with another key: refused, nothing written.
    await control('/callback', { job_id: vendorJobId, forge: true, ResultCode: '1012' });
    expect(bridge.answered.at(-1)).toMatchObject({ status: 401 });
    // Signed, but claiming a validation the job status does not give: the status is believed.
    await control('/callback', { job_id: vendorJobId, ResultCode: '1012' });
    expect(bridge.answered.at(-1)).toMatchObject({ status: 200, body: expect.stringContaining('"pending"') });
    expect(await getVerification(verification.id)).toMatchObject({ status: 'pending' });
    expect((await getBusiness(m.business.id))?.verificationLevel).toBe(0);
  });

  it('says so, with nothing sent, when Smile ID looks up no number of the country or cannot be reached', async () => {
    const { verification } = await newOwner();
    process.env.SMILE_ID_ID_TYPES = '{}';
    try {
      const refused = completeVerification(verification.id, details('CI0012345670'), bridge.url);
      expect(vendorProblemOf(await refused.catch((error: unknown) => error))).toBe('refused');
    } finally {
      delete process.env.SMILE_ID_ID_TYPES;
    }
    process.env.SMILE_ID_BASE_URL = 'http://127.0.0.1:9/v1';
    try {
      const unreachable = completeVerification(verification.id, details('CI0012345670'), bridge.url);
      expect(vendorProblemOf(await unreachable.catch((error: unknown) => error))).toBe('unavailable');
    } finally {
      process.env.SMILE_ID_BASE_URL = `${smileId.url}/v1`;
    }
    expect(await getVerification(verification.id)).toMatchObject({ status: 'pending' });
    expect((await getVerification(verification.id))?.submittedAt).toBeUndefined();
  });
});

/** A level-0 business whose one store is in Senegal, and its owner's open check. */
async function senegaleseOwner() {
  const { business, owner } = await createBusiness({
    name: 'Boutique Médina',
    apiAccessEnabled: true,
    isServiceProvider: false,
    verificationLevel: 0,
  });
  await createStore({ businessId: business.id, name: 'Médina', country: 'SN' });
  const member: ActingMember = {
    businessId: business.id,
    businessName: business.name,
    memberId: owner.id,
    userId: 'owner',
    role: 'owner',
    isServiceProvider: false,
    verificationLevel: 0,
  };
  const verification = await startOwnVerification(member, bridge.url);
  return { business, verification };
}

/** What Smile ID's web script does with the token once the owner has taken the photos. */
const capture = (token: string) =>
  fetch(`${smileId.url}/web/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token,
      product: 'doc_verification',
      callback_url: `${bridge.url}/identity_callbacks/smileid`,
      partner_id: partnerId,
    }),
  });

describe('an owner whose country Smile ID does not look up by number: its document + selfie check', () => {
  it('asks a web token for a Document Verification job of its own, and reaches level 1 on 0810', async () => {
    const { business, verification } = await senegaleseOwner();
    expect((await verificationPageView(verification.id)).documentCheck).toBe(true);
    // The form's Enhanced KYC is not this owner's: Smile ID looks up no Senegalese number here.
    const refused = await completeVerification(verification.id, details('SN123'), bridge.url).catch(
      (error: unknown) => error,
    );
    expect(vendorProblemOf(refused)).toBe('refused');

    const { verification: started, session } = await startDocumentCheck(verification.id, bridge.url);
    expect(started).toMatchObject({ status: 'pending', submittedAt: expect.any(String) });
    const jobId = started.vendorJobId as string;
    // What Smile ID received: a token request for job type 6, product doc_verification, this job.
    expect(smileId.jobs.get(jobId)).toMatchObject({
      partnerParams: { job_id: jobId, user_id: business.id, job_type: 6 },
      product: 'doc_verification',
      callbackUrl: `${bridge.url}/identity_callbacks/smileid`,
    });
    // What the page hands the web script.
    expect(session).toMatchObject({
      token: expect.any(String),
      partnerId,
      product: 'doc_verification',
      callbackUrl: `${bridge.url}/identity_callbacks/smileid`,
      environment: 'sandbox',
      scriptUrl: 'https://cdn.smileidentity.com/inline/v1/js/script.min.js',
    });
    expect(smileId.tokens.get(session?.token ?? '')).toBe(jobId);
    expect(await getVerification(verification.id)).toMatchObject({ vendorJobId: jobId });

    expect((await capture(session?.token ?? '')).status).toBe(200);
    expect(await decided(verification.id)).toMatchObject({ status: 'approved' });
    expect((await getBusiness(business.id))?.verificationLevel).toBe(1);
    // The same result again changes nothing: its job names only the business, which has no open
    // check any more.
    await control('/callback', { job_id: jobId });
    expect(bridge.answered.at(-1)).toMatchObject({ status: 200, body: expect.stringContaining('"unknown"') });
    expect(await getVerification(verification.id)).toMatchObject({ status: 'approved' });
  });

  it('rejects on 0907 with the reason the owner can act on; asks another try on 0001', async () => {
    const rejected = await senegaleseOwner();
    await control('/document_result', { user_id: rejected.business.id, ResultCode: '0907' });
    const first = await startDocumentCheck(rejected.verification.id, bridge.url);
    await capture(first.session?.token ?? '');
    expect(await decided(rejected.verification.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'document_not_verified',
    });
    expect((await getBusiness(rejected.business.id))?.verificationLevel).toBe(0);

    const unusable = await senegaleseOwner();
    await control('/document_result', { user_id: unusable.business.id, ResultCode: '0001' });
    const attempt = await startDocumentCheck(unusable.verification.id, bridge.url);
    await capture(attempt.session?.token ?? '');
    expect(await decided(unusable.verification.id)).toMatchObject({
      status: 'pending',
      retryReason: 'capture_unusable',
    });
    // The page offers the check again, with the reason; a new try is a job of its own.
    expect((await getVerification(unusable.verification.id))?.submittedAt).toBeUndefined();
    await control('/document_result', { user_id: unusable.business.id, ResultCode: '0810' });
    const again = await startDocumentCheck(unusable.verification.id, bridge.url);
    expect(again.verification.vendorJobId).not.toBe(attempt.verification.vendorJobId);
    await capture(again.session?.token ?? '');
    expect(await decided(unusable.verification.id)).toMatchObject({ status: 'approved' });
  });

  it('moves nothing on a forged result, nor on a result of an earlier try', async () => {
    const { business, verification } = await senegaleseOwner();
    await control('/document_result', { user_id: business.id, ResultCode: '0123' });
    const first = await startDocumentCheck(verification.id, bridge.url);
    const firstJob = first.verification.vendorJobId as string;
    await capture(first.session?.token ?? '');
    // A code no Smile ID source names leaves the check pending.
    await eventually(
      () => smileId.callbacksSent.some((c) => c.jobId === firstJob),
      (found) => found,
    );
    expect(bridge.answered.at(-1)).toMatchObject({ status: 200, body: expect.stringContaining('"pending"') });
    // Signed with another key, claiming the document verified: refused, nothing written.
    await control('/callback', { job_id: firstJob, forge: true, ResultCode: '0810' });
    expect(bridge.answered.at(-1)).toMatchObject({ status: 401 });
    // Signed, claiming 0810, but the job status says otherwise: the status is believed.
    await control('/callback', { job_id: firstJob, ResultCode: '0810' });
    expect(bridge.answered.at(-1)).toMatchObject({ status: 200, body: expect.stringContaining('"pending"') });
    // A new try: the first job's result, however signed, no longer decides.
    await startDocumentCheck(verification.id, bridge.url);
    await control('/callback', { job_id: firstJob });
    expect(bridge.answered.at(-1)).toMatchObject({ status: 200, body: expect.stringContaining('"unknown"') });
    expect(await getVerification(verification.id)).toMatchObject({ status: 'pending' });
    expect((await getBusiness(business.id))?.verificationLevel).toBe(0);
  });

  it('maps only the codes a Smile ID source states, per job type', () => {
    expect(outcomeOfResultCode('0810', 6)).toEqual({ status: 'approved' });
    expect(outcomeOfResultCode('0907', 6)).toEqual({ status: 'rejected', reason: 'document_not_verified' });
    expect(outcomeOfResultCode('0001', 6)).toEqual({ status: 'retry', reason: 'capture_unusable' });
    expect(outcomeOfResultCode('1012', 6)).toEqual({ status: 'pending' });
    expect(outcomeOfResultCode('0810', 5)).toEqual({ status: 'pending' });
    expect(outcomeOfResultCode('1012', 5)).toEqual({ status: 'approved' });
  });

  it('is refused where Smile ID looks the country up by number', async () => {
    const { verification } = await newOwner();
    const refused = await startDocumentCheck(verification.id, bridge.url).catch((error: unknown) => error);
    expect(vendorProblemOf(refused)).toBe('refused');
    expect((await getVerification(verification.id))?.submittedAt).toBeUndefined();
  });
});
