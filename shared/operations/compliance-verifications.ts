import { randomUUID } from 'node:crypto';
import { getBusiness } from '#shared/data/business.ts';
import {
  type ComplianceVerification,
  completeVerificationWrites,
  getOpenVerification,
  getVerification,
  markVerificationAttempt,
  newVerificationWrites,
  raiseLevelWrite,
} from '#shared/data/compliance-verification.ts';
import { getLink } from '#shared/data/service-provider-link.ts';
import { listStores } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { isFollowableReturnUrl } from '#shared/domain/return-urls.ts';
import { defaultCountry } from '#shared/domain/uemoa-countries.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import { ProviderRefused, ProviderUnavailable } from '#shared/errors/providers.ts';
import { ComplianceVerificationNotFound, VerificationAlreadyOpen } from '#shared/errors/service-providers.ts';
import { verificationResponse } from '#shared/events/partner-events.ts';
import {
  confirmedSmileIdOutcome,
  requestDocumentWebToken,
  type SmileIdWebSession,
  smileIdDocumentProduct,
  smileIdProductFor,
  submitEnhancedKyc,
} from '#shared/identity/smile-id.ts';
import { count } from '#shared/metrics.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';

/** The level an approved identity check gives: the first, which lifts the level-0 ceiling of zero. */
export const kycVerificationLevel = 1;

/**
 * The verification's page, on the dashboard: the owner signs in and completes it there. The
 * sandbox's former `/sandbox/kyc/{id}` still answers, with a redirect here.
 */
export const verificationPageUrl = (baseUrl: string, id: string) =>
  `${baseUrl}/dashboard/verification/${encodeURIComponent(id)}`;

/**
 * The merchant's open verification of this type, or a new pending one, for a provider linked to
 * the merchant (404 `business_not_found` otherwise). Two concurrent starts make one verification.
 */
export async function startVerification(
  caller: Caller,
  body: { type: 'kyc'; merchantBusinessId: string; callbackUrl?: string | undefined },
  baseUrl: string,
) {
  if (!(await getLink(caller.businessId, body.merchantBusinessId))) throw new BusinessNotFound();
  const open = await getOpenVerification(body.merchantBusinessId, body.type);
  if (open) return verificationResponse(open);
  const id = randomUUID();
  const now = new Date().toISOString();
  const verification: ComplianceVerification = {
    id,
    type: body.type,
    status: 'pending',
    merchantBusinessId: body.merchantBusinessId,
    serviceProviderBusinessId: caller.businessId,
    url: verificationPageUrl(baseUrl, id),
    callbackUrl: body.callbackUrl,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await transactWrite(newVerificationWrites(verification));
  } catch (error) {
    if (!(error instanceof VerificationAlreadyOpen)) throw error;
    const winner = await getOpenVerification(body.merchantBusinessId, body.type);
    if (!winner) throw error;
    return verificationResponse(winner);
  }
  return verificationResponse(verification);
}

export async function verificationById(id: string): Promise<ComplianceVerification> {
  // Pages pass their path as is: an id that cannot be one is not looked up.
  const verification = uuidPattern.test(id) ? await getVerification(id) : undefined;
  if (!verification) throw new ComplianceVerificationNotFound();
  return verification;
}

export interface VerificationPageView {
  verification: ComplianceVerification;
  /**
   * Smile ID checks this owner by document + selfie in its web integration (its store's country
   * is not one it looks up by number): the page offers that instead of the form.
   */
  documentCheck?: boolean;
  /** Who asks for the check (none when the owner started it on the dashboard), and for which business. */
  serviceProviderName: string | undefined;
  merchantName: string;
}

/** The country Smile ID checks the business's owner in: its (first) store's. */
async function countryOf(businessId: string) {
  const [store] = await listStores(businessId);
  return store?.country ?? defaultCountry;
}

/** Whether Smile ID checks this business's owner by document + selfie (see `smileIdProductFor`). */
const usesDocumentCheck = async (businessId: string) =>
  smileIdProductFor(await countryOf(businessId)) === smileIdDocumentProduct;

/** A verification with the names its page shows: two more reads by key (0.5 RCU each). */
export async function verificationPageView(
  id: string,
  verification?: ComplianceVerification,
): Promise<VerificationPageView> {
  const found = verification ?? (await verificationById(id));
  const [provider, merchant, documentCheck] = await Promise.all([
    found.serviceProviderBusinessId ? getBusiness(found.serviceProviderBusinessId) : undefined,
    getBusiness(found.merchantBusinessId),
    // Only a pending check on a Smile ID stage needs to know (one Query of the stores).
    found.status === 'pending' && identityVendor() === 'smileid'
      ? usesDocumentCheck(found.merchantBusinessId)
      : false,
  ]);
  return {
    verification: found,
    documentCheck,
    serviceProviderName: provider?.name,
    merchantName: merchant?.name ?? '',
  };
}

export interface IdentityDetails {
  firstName: string;
  lastName: string;
  idNumber: string;
  dateOfBirth: string;
}

/**
 * The sandbox's decision, by test values as a KYC vendor's sandbox does: an identity document
 * number ending in 0000 is rejected (`identity_not_confirmed`), any other is approved.
 */
export const sandboxIdentityOutcome = (details: IdentityDetails) =>
  /0000$/.test(details.idNumber)
    ? ({ status: 'rejected', reason: 'identity_not_confirmed' } as const)
    : ({ status: 'approved' } as const);

/** Which vendor checks identities on this stage: the sandbox's own test values, or Smile ID. */
export const identityVendor = (): 'sandbox' | 'smileid' =>
  process.env.IDENTITY_VENDOR === 'smileid' ? 'smileid' : 'sandbox';

/** What a vendor's failure to take the check means for the owner's page, if it is one. */
export const vendorProblemOf = (error: unknown): 'refused' | 'unavailable' | undefined =>
  error instanceof ProviderRefused
    ? 'refused'
    : error instanceof ProviderUnavailable
      ? 'unavailable'
      : undefined;

/** Where Smile ID posts its results, under the stage's base URL. */
export const smileIdCallbackPath = '/identity_callbacks/smileid';

/**
 * The owner's details, submitted: the sandbox decides at once; Smile ID is asked and decides by
 * its callback (the verification stays pending, `submittedAt` set, the page says it is under way).
 * A completed verification is returned as it is.
 */
export async function completeVerification(
  id: string,
  details: IdentityDetails,
  baseUrl: string,
): Promise<ComplianceVerification> {
  const verification = await verificationById(id);
  if (verification.status !== 'pending') return verification;
  if (identityVendor() === 'sandbox')
    return decideVerification(verification, sandboxIdentityOutcome(details));
  const vendorJobId = randomUUID();
  await submitEnhancedKyc({
    jobId: vendorJobId,
    verificationId: verification.id,
    userId: verification.merchantBusinessId,
    country: await countryOf(verification.merchantBusinessId),
    idNumber: details.idNumber,
    firstName: details.firstName,
    lastName: details.lastName,
    dateOfBirth: details.dateOfBirth,
    callbackUrl: `${baseUrl}${smileIdCallbackPath}`,
  });
  const at = new Date().toISOString();
  await markVerificationAttempt(verification.id, { submittedAt: at, vendorJobId }, at);
  return { ...verification, submittedAt: at, vendorJobId, retryReason: undefined, updatedAt: at };
}

/**
 * The owner starts Smile ID's document + selfie check (Document Verification in its Hosted Web
 * Integration): a job of its own for this try, whose web token the page hands Smile ID's script.
 * The try is recorded as Enhanced KYC's is (`vendorJobId`, `submittedAt`), so only this job's
 * result decides, and the page says the check is under way (with a way to start again, should the
 * owner have left Smile ID's window before the end). Undefined when the verification is no longer
 * pending; refused (`ProviderRefused`) where the owner's country is one Smile ID looks up by number.
 */
export async function startDocumentCheck(
  id: string,
  baseUrl: string,
): Promise<{ verification: ComplianceVerification; session?: SmileIdWebSession }> {
  const verification = await verificationById(id);
  if (verification.status !== 'pending') return { verification };
  if (identityVendor() !== 'smileid' || !(await usesDocumentCheck(verification.merchantBusinessId)))
    throw new ProviderRefused('the document + selfie check is not this owner’s on this stage');
  const vendorJobId = randomUUID();
  const session = await requestDocumentWebToken({
    jobId: vendorJobId,
    userId: verification.merchantBusinessId,
    callbackUrl: `${baseUrl}${smileIdCallbackPath}`,
  });
  const at = new Date().toISOString();
  await markVerificationAttempt(verification.id, { submittedAt: at, vendorJobId }, at);
  return {
    verification: { ...verification, submittedAt: at, vendorJobId, retryReason: undefined, updatedAt: at },
    session,
  };
}

/**
 * Smile ID's result, its job status confirmed: approved or rejected completes the verification
 * through the one transaction the sandbox's decision uses; "try again" reopens the form with the
 * reason; anything else leaves it pending. Answers what it did.
 */
export async function applySmileIdResult(
  verificationId: string | undefined,
  jobId: string,
  userId?: string,
): Promise<'approved' | 'rejected' | 'retry' | 'pending' | 'unknown' | 'already_completed'> {
  // Enhanced KYC's job names its verification; a web token's job (document + selfie) only its
  // user, the business, whose open check is then the one (and only if this job is its latest try).
  const verification = verificationId
    ? uuidPattern.test(verificationId)
      ? await getVerification(verificationId)
      : undefined
    : userId
      ? await getOpenVerification(userId, 'kyc')
      : undefined;
  if (!verification) return 'unknown';
  if (verification.status !== 'pending') return 'already_completed';
  // A late result of an earlier try (or of a job that is not this verification's) decides nothing.
  if (verification.vendorJobId !== jobId) return 'unknown';
  const outcome = await confirmedSmileIdOutcome(jobId, verification.merchantBusinessId);
  if (!outcome || outcome.status === 'pending') return 'pending';
  if (outcome.status === 'retry') {
    const at = new Date().toISOString();
    await markVerificationAttempt(verification.id, { retryReason: outcome.reason }, at);
    return 'retry';
  }
  const completed = await decideVerification(verification, outcome);
  return completed.status === 'pending' ? 'pending' : completed.status;
}

/**
 * Decides a pending verification: approved raises the business's level (so its collection ceiling)
 * and opens its API access in the same transaction. One transaction for every vendor.
 */
async function decideVerification(
  verification: ComplianceVerification,
  outcome: { status: 'approved' } | { status: 'rejected'; reason: string },
): Promise<ComplianceVerification> {
  const business = await getBusiness(verification.merchantBusinessId);
  if (!business) throw new BusinessNotFound();
  const at = new Date().toISOString();
  const completed: ComplianceVerification = {
    ...verification,
    status: outcome.status,
    rejectionReason: outcome.status === 'rejected' ? outcome.reason : undefined,
    updatedAt: at,
  };
  const raise =
    outcome.status === 'approved' && business.verificationLevel < kycVerificationLevel
      ? [raiseLevelWrite(business.id, business.verificationLevel, kycVerificationLevel)]
      : [];
  // The provider that started it hears of it from the table's stream (shared/events/).
  await transactWrite([...completeVerificationWrites(completed, outcome.status, at), ...raise]);
  count('ComplianceVerificationsCompleted', { outcome: outcome.status });
  return completed;
}

/**
 * The owner's own identity check, from the dashboard: the business's open one (a provider's
 * included), or a new one. Two concurrent starts make one.
 */
export async function startOwnVerification(member: ActingMember, baseUrl: string) {
  const open = await getOpenVerification(member.businessId, 'kyc');
  if (open) return open;
  const id = randomUUID();
  const now = new Date().toISOString();
  const verification: ComplianceVerification = {
    id,
    type: 'kyc',
    status: 'pending',
    merchantBusinessId: member.businessId,
    url: verificationPageUrl(baseUrl, id),
    createdAt: now,
    updatedAt: now,
  };
  try {
    await transactWrite(newVerificationWrites(verification));
  } catch (error) {
    if (!(error instanceof VerificationAlreadyOpen)) throw error;
    const winner = await getOpenVerification(member.businessId, 'kyc');
    if (!winner) throw error;
    return winner;
  }
  return verification;
}

/** A verification of the acting member's business; another business's is not found (404). */
export async function verificationOfMember(member: ActingMember, id: string) {
  const verification = await verificationById(id);
  if (verification.merchantBusinessId !== member.businessId) throw new ComplianceVerificationNotFound();
  return verification;
}

/**
 * Where the owner's browser goes once a verification is completed: the provider's `callbackUrl`
 * with `verificationId` and `status` added, or undefined when it has none it may follow. The
 * integration learns the outcome from its event; the address only says which one to look at.
 */
export function verificationCallbackTarget(completed: ComplianceVerification): string | undefined {
  if (!isFollowableReturnUrl(completed.callbackUrl)) return undefined;
  const target = new URL(completed.callbackUrl);
  target.searchParams.set('verificationId', completed.id);
  target.searchParams.set('status', completed.status);
  return target.href;
}
