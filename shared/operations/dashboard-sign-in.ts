import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { invitationsOfPhone } from '#shared/data/invitation.ts';
import {
  codeLifetimeMs,
  codesPerPhone,
  countTry,
  getSignInCode,
  maxCodeTries,
  newSignInCodeWrites,
  type SignInCode,
  type SignInLimit,
  SignInLimitReached,
  settleCodeWrite,
  useVerifiedAttemptWrite,
} from '#shared/data/sign-in-code.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { findUserByPhone } from '#shared/data/user.ts';
import { isActivityOffered } from '#shared/domain/activities.ts';
import type { Language } from '#shared/domain/languages.ts';
import { normalisePhoneNumber } from '#shared/domain/phone-numbers.ts';
import { defaultCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { Conflict } from '#shared/errors/request.ts';
import { UserAlreadyExists } from '#shared/errors/service-providers.ts';
import { count } from '#shared/metrics.ts';
import { recordSignInStep } from '#shared/operations/audit-log.ts';
import { startSession } from '#shared/operations/dashboard-sessions.ts';
import { sendPlatformSms } from '#shared/operations/messages.ts';
import { createOwnedBusiness } from '#shared/operations/service-providers.ts';
import { acceptInvitations } from '#shared/operations/team.ts';

/**
 * "Continue with your phone": one flow for sign-in and sign-up. The same words and the same code
 * whether the phone is known or not, so the form tells nobody who has an account; only the
 * holder of the phone, once the code is right, learns whether they sign in or sign up.
 */

/** The stage-wide cap on codes an hour (SMS pumping); stage configuration, with a default. */
const codesPerHour = () => positiveNumber(process.env.SIGN_IN_CODES_PER_HOUR, 500);
/** Per source address an hour: generous, as many phones share a carrier's addresses. */
const codesPerAddressPerHour = () => positiveNumber(process.env.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR, 30);

function positiveNumber(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value && Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** In the language of the page it was asked from. No link: nobody should learn to follow links from a code SMS. */
const codeText: Record<Language, (code: string) => string> = {
  fr: (code) =>
    `Partner Payments : votre code est ${code}. Il expire dans 5 minutes. Ne le donnez à personne.`,
  en: (code) => `Partner Payments: your code is ${code}. It expires in 5 minutes. Do not share it.`,
};

const codeHash = (salt: string, attemptId: string, code: string) =>
  createHash('sha256').update(`${salt}:${attemptId}:${code}`).digest();

export type CodeRequestOutcome =
  | { outcome: 'sent'; attemptId: string }
  | { outcome: 'invalid_phone' }
  | { outcome: 'limited'; limit: SignInLimit };

/**
 * A code for `rawPhone` (its national form read in `country`), sent by the service's own SMS
 * (charged to no business), if the phone, the address and the stage are all within their limits:
 * the code and the three claims are one transaction, so a refused claim leaves no code and no
 * count behind.
 */
export async function requestSignInCode(
  rawPhone: string,
  address: string,
  now = new Date(),
  language: Language = 'fr',
  country: UemoaCountry = defaultCountry,
): Promise<CodeRequestOutcome> {
  // A national number (`77 738 49 78`) is read in the country chosen beside the field.
  const phone = normalisePhoneNumber(rawPhone, country);
  if (!phone) return { outcome: 'invalid_phone' };
  const attemptId = randomUUID();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16).toString('hex');
  const signInCode: SignInCode = {
    attemptId,
    phone,
    salt,
    codeHash: codeHash(salt, attemptId, code).toString('hex'),
    tries: 0,
    status: 'pending',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + codeLifetimeMs).toISOString(),
  };
  const limits = { address, perAddressPerHour: codesPerAddressPerHour(), perStagePerHour: codesPerHour() };
  for (let slot = 0; ; slot++) {
    try {
      await transactWrite(newSignInCodeWrites(signInCode, { ...limits, slot }, now));
      break;
    } catch (error) {
      if (!(error instanceof SignInLimitReached)) throw error;
      // A taken slot: the phone may have another free one. Any other limit refuses at once.
      if (error.limit === 'phone' && slot + 1 < codesPerPhone) continue;
      count('SignInCodesRefused', { limit: error.limit });
      return { outcome: 'limited', limit: error.limit };
    }
  }
  count('SignInCodesSent');
  await sendPlatformSms({
    to: phone,
    reference: `sign-in:${attemptId}`,
    body: codeText[language](code),
  });
  return { outcome: 'sent', attemptId };
}

export type CodeOutcome =
  | { outcome: 'signed_in'; sessionId: string }
  | { outcome: 'sign_up' }
  | { outcome: 'wrong'; triesLeft: number }
  | { outcome: 'malformed' }
  /** Unknown, expired, already used or out of tries: a new code is needed. */
  | { outcome: 'ended' };

/**
 * The code typed on the code page. Each try is counted before the code is compared (see
 * `countTry`); a right code is used once: a known phone gets a session, a new one the sign-up form.
 */
export async function submitSignInCode(
  attemptId: string | undefined,
  rawCode: string,
  now = new Date(),
  sourceIp = '',
): Promise<CodeOutcome> {
  if (!attemptId) return { outcome: 'ended' };
  const code = rawCode.replace(/\s/g, '');
  if (!/^\d{6}$/.test(code)) return { outcome: 'malformed' };
  const attempt = await countTry(attemptId, now);
  if (!attempt) return { outcome: 'ended' };
  const right = timingSafeEqual(
    codeHash(attempt.salt, attemptId, code),
    Buffer.from(attempt.codeHash, 'hex'),
  );
  if (!right) {
    count('SignInCodesWrong');
    await recordSignInStep({ phone: attempt.phone }, 'sign_in_code_failed', sourceIp, now);
    const triesLeft = maxCodeTries - attempt.tries;
    return triesLeft > 0 ? { outcome: 'wrong', triesLeft } : { outcome: 'ended' };
  }
  const known = await findUserByPhone(attempt.phone);
  // An invited phone joins its businesses instead of signing up for one of its own.
  const invited = (await invitationsOfPhone(attempt.phone, now)).length > 0;
  try {
    await transactWrite([settleCodeWrite(attemptId, known || invited ? 'used' : 'verified', now)]);
  } catch (error) {
    if (error instanceof Conflict) return { outcome: 'ended' };
    throw error;
  }
  const { user, joined } = invited
    ? await acceptInvitations(attempt.phone, known, now)
    : { user: known, joined: [] };
  if (!user) return invited ? { outcome: 'ended' } : { outcome: 'sign_up' };
  count('DashboardSignIns');
  // The session acts for the business just joined, so the invitee lands in it.
  const session = await startSession(user.id, now, joined.at(-1));
  await recordSignInStep({ userId: user.id, phone: user.phone }, 'sign_in', sourceIp, now);
  return { outcome: 'signed_in', sessionId: session.id };
}

/** The verified phone waiting for the sign-up form, or undefined when there is none (or no longer). */
export async function pendingSignUp(attemptId: string | undefined, now = new Date()) {
  const attempt = attemptId ? await getSignInCode(attemptId) : undefined;
  if (attempt?.status !== 'verified' || !attempt.signUpBy || new Date(attempt.signUpBy) <= now) {
    return undefined;
  }
  return { phone: attempt.phone };
}

export interface SignUpForm {
  firstName: string;
  lastName: string;
  businessName: string;
  activityId: string;
  storeName: string;
}

export type SignUpField = keyof SignUpForm;

export type SignUpOutcome =
  | { outcome: 'signed_up'; sessionId: string }
  | { outcome: 'invalid'; fields: SignUpField[] }
  | { outcome: 'ended' };

const nameFields = ['firstName', 'lastName', 'businessName', 'storeName'] as const;

/** The fields the sign-up form is missing or has wrong, in the form's order. */
export function invalidSignUpFields(form: SignUpForm): SignUpField[] {
  const invalid: SignUpField[] = nameFields.filter((field) => form[field].trim() === '');
  if (!isActivityOffered(form.activityId)) invalid.splice(2, 0, 'activityId');
  return invalid;
}

/**
 * The new owner's business: level 0 and no API access (it opens with the first verification),
 * its first store and wallets, the owner as its member, made by the same operation as a
 * provider's onboarding, with the attempt's single use in the same transaction. A phone that got
 * an account in the meantime signs in as that account: the code proved it is theirs.
 */
export async function signUp(
  attemptId: string | undefined,
  form: SignUpForm,
  now = new Date(),
  sourceIp = '',
): Promise<SignUpOutcome> {
  const pending = await pendingSignUp(attemptId, now);
  if (!attemptId || !pending) return { outcome: 'ended' };
  const fields = invalidSignUpFields(form);
  if (fields.length > 0) return { outcome: 'invalid', fields };
  const useAttempt = useVerifiedAttemptWrite(attemptId, now);
  try {
    const { user } = await createOwnedBusiness({
      owner: { phone: pending.phone, firstName: form.firstName.trim(), lastName: form.lastName.trim() },
      business: { name: form.businessName.trim(), activityId: form.activityId },
      storeName: form.storeName.trim(),
      alsoWrite: [useAttempt],
    });
    count('DashboardSignUps');
    const session = await startSession(user.id, now);
    await recordSignInStep({ userId: user.id, phone: user.phone }, 'sign_in', sourceIp, now);
    return { outcome: 'signed_up', sessionId: session.id };
  } catch (error) {
    if (error instanceof UserAlreadyExists) {
      const user = await findUserByPhone(pending.phone);
      if (!user) throw error;
      try {
        await transactWrite([useAttempt]);
      } catch (used) {
        if (used instanceof Conflict) return { outcome: 'ended' };
        throw used;
      }
      const session = await startSession(user.id, now);
      await recordSignInStep({ userId: user.id, phone: user.phone }, 'sign_in', sourceIp, now);
      return { outcome: 'signed_up', sessionId: session.id };
    }
    if (error instanceof Conflict) return { outcome: 'ended' };
    throw error;
  }
}
