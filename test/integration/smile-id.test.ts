import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBusiness } from '#shared/data/business.ts';
import { getVerification } from '#shared/data/compliance-verification.ts';
import {
  completeVerification,
  startOwnVerification,
  vendorProblemOf,
} from '#shared/operations/compliance-verifications.ts';
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
    expect(await decided(verification.id)).toMatchObject({ status: 'approved' });
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
