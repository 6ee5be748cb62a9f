import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusiness, getBusiness } from '#shared/data/business.ts';
import { getVerification } from '#shared/data/compliance-verification.ts';
import { linkMerchant } from '#shared/data/service-provider-link.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { verificationCompletedEvent } from '#shared/events/partner-events.ts';
import { completeVerification, startVerification } from '#shared/operations/compliance-verifications.ts';
import { type SmileIdFake, startSmileIdFake } from '#test/fakes/smileid-fake.ts';
import { startCallbackBridge } from '#test/support/callback-bridge.ts';
import { eventually } from '#test/support/eventually.ts';
import { fakeControl } from '#test/support/fake-control.ts';
import { merchant } from '#test/support/fixtures.ts';

/**
 * A compliance verification a service provider starts (`POST /partner_api/service_providers/
 * compliance_verifications`) is checked by the stage's vendor, as the owner's own is: its page is
 * the dashboard's, whose form goes through `completeVerification`. Here the vendor is Smile ID's
 * contract fake, and its account is read as a deployed stage reads it: one secret holding the
 * partner id and the key (`SMILE_ID_SECRET`), no `SMILE_ID_PARTNER_ID`.
 */
const partnerId = '2343';
const apiKey = randomUUID();
let smileId: SmileIdFake;
let bridge: Awaited<ReturnType<typeof startCallbackBridge>>;

beforeAll(async () => {
  smileId = await startSmileIdFake({ partnerId, apiKey, answerDelayMs: 100 });
  bridge = await startCallbackBridge();
  delete process.env.SMILE_ID_PARTNER_ID;
  delete process.env.SMILE_ID_API_KEY;
  Object.assign(process.env, {
    IDENTITY_VENDOR: 'smileid',
    SMILE_ID_BASE_URL: `${smileId.url}/v1`,
    SMILE_ID_SECRET: JSON.stringify({ partnerId, apiKey }),
  });
});

afterAll(async () => {
  delete process.env.IDENTITY_VENDOR;
  delete process.env.SMILE_ID_BASE_URL;
  delete process.env.SMILE_ID_SECRET;
  await smileId.close();
  await bridge.close();
});

const control = fakeControl(() => smileId.url);

/** A service provider linked to a new merchant at level 0, and the verification it started. */
async function providerStartsCheck() {
  const { business: provider, owner } = await createBusiness({
    name: 'Intégrateur',
    apiAccessEnabled: true,
    isServiceProvider: true,
    verificationLevel: 1,
  });
  const m = await merchant({ verificationLevel: 0 });
  await linkMerchant(provider.id, m.business.id);
  const caller: Caller = {
    businessId: provider.id,
    keyId: 'provider-key',
    keyKind: 'merchant',
    memberId: owner.id,
    isServiceProvider: true,
    verificationLevel: 1,
  };
  const started = await startVerification(
    caller,
    { type: 'kyc', merchantBusinessId: m.business.id, callbackUrl: 'https://integrator.example.com/kyc' },
    bridge.url,
  );
  return { provider, m, started };
}

const details = (idNumber: string) => ({
  firstName: 'Awa',
  lastName: 'Traoré',
  idNumber,
  dateOfBirth: '1990-03-27',
});

describe("a service provider's compliance verification, checked by Smile ID", () => {
  it("reaches approved through Smile ID's callback: the merchant's level rises, the provider hears of it", async () => {
    const { provider, m, started } = await providerStartsCheck();
    expect(started).toMatchObject({
      status: 'pending',
      url: `${bridge.url}/dashboard/verification/${started.id}`,
    });
    // The owner fills the page the provider sent it to: the details go to Smile ID, not the sandbox.
    const submitted = await completeVerification(started.id, details('CI0012345670'), bridge.url);
    expect(submitted).toMatchObject({ status: 'pending', serviceProviderBusinessId: provider.id });
    const job = smileId.jobs.get(submitted.vendorJobId as string);
    expect(job?.partnerParams).toMatchObject({ verification_id: started.id, user_id: m.business.id });
    const decided = await eventually(
      () => getVerification(started.id),
      (found) => found?.status !== 'pending',
    );
    expect(decided).toMatchObject({ status: 'approved' });
    expect(bridge.answered.some((answer) => answer.status === 200 && answer.body.includes('approved'))).toBe(
      true,
    );
    expect((await getBusiness(m.business.id))?.verificationLevel).toBe(1);
    // The provider's event (sent from the table's stream) says approved.
    expect(verificationCompletedEvent(decided as NonNullable<typeof decided>)).toMatchObject({
      name: 'COMPLIANCE_VERIFICATION_COMPLETED',
      body: { id: started.id, status: 'approved', merchantBusinessId: m.business.id },
    });
  });

  it('changes nothing on a forged callback', async () => {
    const { m, started } = await providerStartsCheck();
    // The authority is down (1015): Smile ID's own result leaves the check pending.
    const { vendorJobId } = await completeVerification(started.id, details('CI0012345673'), bridge.url);
    await eventually(
      () => smileId.callbacksSent.some((sent) => sent.jobId === vendorJobId),
      (found) => found,
    );
    // Claiming a validation, signed with another key: refused, nothing written.
    await control('/callback', { job_id: vendorJobId, forge: true, ResultCode: '1012' });
    expect(bridge.answered.at(-1)).toMatchObject({ status: 401 });
    const after = await getVerification(started.id);
    expect(after).toMatchObject({ status: 'pending', vendorJobId });
    expect(after?.rejectionReason).toBeUndefined();
    expect((await getBusiness(m.business.id))?.verificationLevel).toBe(0);
  });
});
