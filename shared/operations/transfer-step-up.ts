import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  codeLifetimeMs,
  codesPerPhone,
  countTry,
  maxCodeTries,
  newSignInCodeWrites,
  type SignInCode,
  SignInLimitReached,
  settleCodeWrite,
} from '#shared/data/sign-in-code.ts';
import { transactWrite } from '#shared/data/transact.ts';
import type { Language } from '#shared/domain/languages.ts';
import { Conflict } from '#shared/errors/request.ts';
import { count } from '#shared/metrics.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { sendPlatformSms } from '#shared/operations/messages.ts';

/**
 * Step-up for a transfer above the business's threshold, as banks do: a fresh 6-digit code sent
 * by SMS to the member's own phone, on the sign-in codes' machinery (random, 5 minutes, used once,
 * every try counted and the sixth refused, limits claimed with the code in one transaction), and
 * bound to that transfer: the code's hash covers the digest of its details (store, beneficiary,
 * amount, the confirm form's idempotency key), so a code for transfer A never confirms transfer B,
 * nor A with another amount, and a sign-in never accepts it.
 *
 * The phone's slots are the step-up's own (`STEPUPLIMIT#PHONE#…`: three codes in any 15 minutes);
 * the per-address and stage-wide hourly counters are the sign-in codes', the stage's cap on SMS
 * the service pays for.
 */

const codesPerHour = () => positiveNumber(process.env.SIGN_IN_CODES_PER_HOUR, 500);
const codesPerAddressPerHour = () => positiveNumber(process.env.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR, 30);

function positiveNumber(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value && Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** The details the code confirms, as one digest: any change gives another. */
export function stepUpBinding(details: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(details)).digest('hex');
}

const codeHash = (salt: string, attemptId: string, binding: string, code: string) =>
  createHash('sha256').update(`${salt}:${attemptId}:step-up:${binding}:${code}`).digest();

export type StepUpRequest = { outcome: 'sent'; attemptId: string } | { outcome: 'limited' };

/** A code for the transfer `binding` names, sent to `phone` (the member's own) with what it confirms. */
export async function requestStepUpCode(input: {
  phone: string;
  binding: string;
  /** What the SMS says the code confirms, in the page's language ("150 000 F CFA à Awa"). */
  purpose: string;
  /** Sending money (the default), or adding a payout account (issue 34). */
  confirming?: 'sending' | 'payoutAccount';
  address: string;
  language: Language;
  now?: Date;
}): Promise<StepUpRequest> {
  const now = input.now ?? new Date();
  const attemptId = randomUUID();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16).toString('hex');
  const stepUp: SignInCode = {
    attemptId,
    phone: input.phone,
    salt,
    codeHash: codeHash(salt, attemptId, input.binding, code).toString('hex'),
    tries: 0,
    status: 'pending',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + codeLifetimeMs).toISOString(),
  };
  const limits = {
    address: input.address,
    perAddressPerHour: codesPerAddressPerHour(),
    perStagePerHour: codesPerHour(),
    slotsOf: 'step-up' as const,
  };
  for (let slot = 0; ; slot++) {
    try {
      await transactWrite(newSignInCodeWrites(stepUp, { ...limits, slot }, now));
      break;
    } catch (error) {
      if (!(error instanceof SignInLimitReached)) throw error;
      if (error.limit === 'phone' && slot + 1 < codesPerPhone) continue;
      // The sign-in codes' metric: the stage's cap and its alarm are theirs too.
      count('SignInCodesRefused', { limit: error.limit });
      return { outcome: 'limited' };
    }
  }
  count('StepUpCodesSent');
  await sendPlatformSms({
    to: input.phone,
    reference: `step-up:${attemptId}`,
    body: (input.confirming === 'payoutAccount' ? payoutAccountText : smsText)[input.language](
      code,
      input.purpose,
    ),
  });
  return { outcome: 'sent', attemptId };
}

/** The sign-in code's words ("votre code est …"), then what it confirms. No link. */
const smsText: Record<Language, (code: string, purpose: string) => string> = {
  fr: (code, purpose) =>
    `Partner Payments : votre code est ${code} pour confirmer l’envoi de ${purpose}. Il expire dans 5 minutes. Ne le donnez à personne.`,
  en: (code, purpose) =>
    `Partner Payments: your code is ${code} to confirm sending ${purpose}. It expires in 5 minutes. Do not share it.`,
};

/** The same, for a payout account: what it adds, so a code asked by someone else is noticed. */
const payoutAccountText: Record<Language, (code: string, purpose: string) => string> = {
  fr: (code, purpose) =>
    `Partner Payments : votre code est ${code} pour ajouter le compte de retrait ${purpose}. Il expire dans 5 minutes. Ne le donnez à personne.`,
  en: (code, purpose) =>
    `Partner Payments: your code is ${code} to add the payout account ${purpose}. It expires in 5 minutes. Do not share it.`,
};

export type StepUpOutcome =
  | { outcome: 'confirmed' }
  | { outcome: 'wrong'; triesLeft: number }
  | { outcome: 'malformed' }
  /** Unknown, expired, used, out of tries, or for another transfer's details once its tries ran out. */
  | { outcome: 'ended' };

/**
 * The code typed on the confirm page, for the transfer `binding` names: the try is counted first
 * (a conditional write), then the code compared; a right one is used once, here. A wrong one is
 * recorded in the audit log (`step_up_code_failed`).
 */
export async function checkStepUpCode(
  member: ActingMember,
  input: { attemptId: string; binding: string; code: string; sourceIp: string; now?: Date },
): Promise<StepUpOutcome> {
  const now = input.now ?? new Date();
  const code = input.code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(code)) return { outcome: 'malformed' };
  if (!input.attemptId) return { outcome: 'ended' };
  const attempt = await countTry(input.attemptId, now);
  if (!attempt) return { outcome: 'ended' };
  const right = timingSafeEqual(
    codeHash(attempt.salt, attempt.attemptId, input.binding, code),
    Buffer.from(attempt.codeHash, 'hex'),
  );
  if (!right) {
    count('StepUpCodesWrong');
    await recordAudit(member, {
      action: 'step_up_code_failed',
      subjectId: attempt.attemptId,
      sourceIp: input.sourceIp,
    });
    const triesLeft = maxCodeTries - attempt.tries;
    return triesLeft > 0 ? { outcome: 'wrong', triesLeft } : { outcome: 'ended' };
  }
  try {
    await transactWrite([settleCodeWrite(attempt.attemptId, 'used', now)]);
  } catch (error) {
    if (error instanceof Conflict) return { outcome: 'ended' };
    throw error;
  }
  return { outcome: 'confirmed' };
}
