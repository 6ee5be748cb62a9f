import { randomInt } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getBusiness } from '#shared/data/business.ts';
import { listMemberships } from '#shared/data/membership.ts';
import { findUserByPhone } from '#shared/data/user.ts';

/**
 * Sign-in codes and sessions against DynamoDB Local, with the clock passed in, so the minutes and
 * hours the rules speak of are tested as such. The SMS is taken where the operation hands it to
 * the service's SMS path (the end-to-end suite reads real ones from the local SMS inbox), and the
 * metrics where they are counted.
 */
const sent = vi.hoisted(() => [] as { to: string; body: string }[]);
const counted = vi.hoisted(() => [] as { name: string; dimensions?: Record<string, string> }[]);
vi.mock('#shared/operations/messages.ts', () => ({
  sendPlatformSms: async (message: { to: string; body: string }) => {
    sent.push(message);
    return message;
  },
}));
vi.mock('#shared/metrics.ts', () => ({
  count: (name: string, dimensions?: Record<string, string>) => counted.push({ name, dimensions }),
}));

const { requestSignInCode, submitSignInCode, signUp, pendingSignUp } = await import(
  '#shared/operations/dashboard-sign-in.ts'
);
const { resumeSession, startSession, endSession } = await import('#shared/operations/dashboard-sessions.ts');

const newPhone = () => `+22507${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
const newAddress = () => `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(0, 255)}`;
const minutes = (n: number) => n * 60_000;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

/** The code the phone got last. */
function lastCodeFor(phone: string): string {
  const message = sent.filter((sms) => sms.to === phone).at(-1);
  const code = /(\d{6})/.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error(`no code sent to ${phone}`);
  return code;
}

async function codeFor(phone: string, now = new Date(), address = newAddress()) {
  const answer = await requestSignInCode(phone, address, now);
  if (answer.outcome !== 'sent') throw new Error(`no code: ${JSON.stringify(answer)}`);
  return { attemptId: answer.attemptId, code: lastCodeFor(phone) };
}

const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

beforeEach(() => {
  counted.length = 0;
  delete process.env.SIGN_IN_CODES_PER_HOUR;
  delete process.env.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR;
});

describe('sign-in codes', () => {
  it('sends six random digits, and the stored attempt holds neither the code nor anything it hashes to alone', async () => {
    const phone = newPhone();
    const { attemptId, code } = await codeFor(phone);
    expect(code).toMatch(/^\d{6}$/);
    const { getSignInCode } = await import('#shared/data/sign-in-code.ts');
    const stored = await getSignInCode(attemptId);
    expect(JSON.stringify(stored)).not.toContain(`"${code}"`);
    expect(stored?.salt).toMatch(/^[0-9a-f]{32}$/);
  });

  it('takes a phone written the local way as the same phone', async () => {
    const phone = newPhone();
    const local = `0${phone.slice(5, 7)} ${phone.slice(7, 9)} ${phone.slice(9, 11)} ${phone.slice(11)}`;
    const answer = await requestSignInCode(local, newAddress());
    expect(answer.outcome).toBe('sent');
    expect(sent.at(-1)?.to).toBe(phone);
  });

  it('refuses what is not a phone number, sending nothing', async () => {
    const before = sent.length;
    expect(await requestSignInCode('<script>', newAddress())).toEqual({ outcome: 'invalid_phone' });
    expect(sent.length).toBe(before);
  });

  it('expires after 5 minutes, even with the right code', async () => {
    const now = new Date();
    const { attemptId, code } = await codeFor(newPhone(), now);
    expect(await submitSignInCode(attemptId, code, at(now, minutes(5) + 1000))).toEqual({ outcome: 'ended' });
  });

  it('ends after five wrong tries: the sixth is refused even with the right code', async () => {
    const { attemptId, code } = await codeFor(newPhone());
    for (let left = 4; left >= 1; left--) {
      expect(await submitSignInCode(attemptId, wrongCodeFor(code))).toEqual({
        outcome: 'wrong',
        triesLeft: left,
      });
    }
    expect(await submitSignInCode(attemptId, wrongCodeFor(code))).toEqual({ outcome: 'ended' });
    expect(await submitSignInCode(attemptId, code)).toEqual({ outcome: 'ended' });
  });

  it('counts guesses sent all at once: of 40 parallel tries with the right one among them, at most five are judged', async () => {
    const { attemptId, code } = await codeFor(newPhone());
    const guesses = Array.from({ length: 40 }, (_, index) => (index === 39 ? code : wrongCodeFor(code)));
    const answers = await Promise.all(guesses.map((guess) => submitSignInCode(attemptId, guess)));
    const judged = answers.filter((answer) => answer.outcome !== 'ended');
    expect(judged.length).toBeLessThanOrEqual(5);
    const { getSignInCode } = await import('#shared/data/sign-in-code.ts');
    expect((await getSignInCode(attemptId))?.tries).toBe(5);
  });

  it('is used once: the same right code a second time is refused', async () => {
    const { attemptId, code } = await codeFor(newPhone());
    expect((await submitSignInCode(attemptId, code)).outcome).toBe('sign_up');
    expect(await submitSignInCode(attemptId, code)).toEqual({ outcome: 'ended' });
  });

  it('does not count a typo that is not six digits as a try', async () => {
    const { attemptId, code } = await codeFor(newPhone());
    for (let i = 0; i < 6; i++)
      expect(await submitSignInCode(attemptId, '12 34')).toEqual({ outcome: 'malformed' });
    expect((await submitSignInCode(attemptId, code)).outcome).toBe('sign_up');
  });
});

describe('limits on codes', () => {
  it('sends at most three codes to a phone in any 15 minutes, and a fourth once the first is 15 minutes old', async () => {
    const phone = newPhone();
    const now = new Date();
    for (let i = 0; i < 3; i++) await codeFor(phone, at(now, minutes(i)));
    const before = sent.length;
    expect(await requestSignInCode(phone, newAddress(), at(now, minutes(14)))).toEqual({
      outcome: 'limited',
      limit: 'phone',
    });
    expect(sent.length).toBe(before);
    expect(counted).toContainEqual({ name: 'SignInCodesRefused', dimensions: { limit: 'phone' } });
    expect((await requestSignInCode(phone, newAddress(), at(now, minutes(15)))).outcome).toBe('sent');
    expect((await requestSignInCode(phone, newAddress(), at(now, minutes(15)))).outcome).toBe('limited');
  });

  it('limits the codes asked from one address in an hour', async () => {
    process.env.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR = '2';
    const address = newAddress();
    await codeFor(newPhone(), new Date(), address);
    await codeFor(newPhone(), new Date(), address);
    expect(await requestSignInCode(newPhone(), address)).toEqual({ outcome: 'limited', limit: 'address' });
    expect((await requestSignInCode(newPhone(), newAddress())).outcome).toBe('sent');
  });

  it('caps the stage’s codes an hour, counting a metric an alarm can watch, and sends none past it', async () => {
    // The cap counts every code of the hour, those of the other tests included: set just above.
    const now = at(new Date(), 24 * 3_600_000 * randomInt(2, 1000));
    process.env.SIGN_IN_CODES_PER_HOUR = '2';
    await codeFor(newPhone(), now);
    await codeFor(newPhone(), now);
    const before = sent.length;
    const phone = newPhone();
    expect(await requestSignInCode(phone, newAddress(), now)).toEqual({ outcome: 'limited', limit: 'stage' });
    expect(sent.length).toBe(before);
    expect(counted).toContainEqual({ name: 'SignInCodesRefused', dimensions: { limit: 'stage' } });
    // A refused code took none of the phone's slots: under the cap again, it gets all three.
    process.env.SIGN_IN_CODES_PER_HOUR = '100';
    for (let i = 0; i < 3; i++) await codeFor(phone, at(now, 3_600_000 + i));
  });

  it('never sends more than the cap when many ask at once', async () => {
    const now = at(new Date(), 24 * 3_600_000 * randomInt(1000, 2000));
    process.env.SIGN_IN_CODES_PER_HOUR = '5';
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => requestSignInCode(newPhone(), newAddress(), now)),
    );
    expect(answers.filter((answer) => answer.outcome === 'sent').length).toBe(5);
  });
});

describe('sign-up and sessions', () => {
  const form = {
    firstName: 'Aya',
    lastName: 'Koné',
    businessName: 'Boutique <b>Aya</b>',
    activityId: 'commerce.boutique',
    storeName: 'Cocody',
  };

  it('makes a business at level 0 without API access, owned by the new user, and signs them in', async () => {
    const phone = newPhone();
    const { attemptId, code } = await codeFor(phone);
    expect((await submitSignInCode(attemptId, code)).outcome).toBe('sign_up');
    expect(await pendingSignUp(attemptId)).toEqual({ phone });
    const answer = await signUp(attemptId, form);
    if (answer.outcome !== 'signed_up') throw new Error(JSON.stringify(answer));
    const user = await findUserByPhone(phone);
    const [owned] = await listMemberships(user?.id ?? '');
    const business = await getBusiness(owned?.businessId ?? '');
    expect(business).toMatchObject({
      name: form.businessName,
      apiAccessEnabled: false,
      verificationLevel: 0,
      activityId: 'commerce.boutique',
    });
    expect((await resumeSession(answer.sessionId))?.userId).toBe(user?.id);
    // The verified attempt is spent: the form cannot make a second business.
    expect(await signUp(attemptId, { ...form, businessName: 'Encore' })).toEqual({ outcome: 'ended' });
    expect(await listMemberships(user?.id ?? '')).toHaveLength(1);
  });

  it('names the fields to fix, and an activity outside the catalogue is one of them', async () => {
    const { attemptId, code } = await codeFor(newPhone());
    await submitSignInCode(attemptId, code);
    expect(await signUp(attemptId, { ...form, firstName: ' ', activityId: 'casino' })).toEqual({
      outcome: 'invalid',
      fields: ['firstName', 'activityId'],
    });
  });

  it('signs a known phone in with a session at once, without the sign-up form', async () => {
    const phone = newPhone();
    const first = await codeFor(phone);
    await submitSignInCode(first.attemptId, first.code);
    await signUp(first.attemptId, form);
    const again = await codeFor(phone);
    const answer = await submitSignInCode(again.attemptId, again.code);
    expect(answer.outcome).toBe('signed_in');
    expect(await pendingSignUp(again.attemptId)).toBeUndefined();
  });

  it('ends a session after 30 idle minutes, and after 12 hours however busy', async () => {
    const now = new Date();
    const idle = await startSession('user-idle', now);
    expect(await resumeSession(idle.id, at(now, minutes(29)))).toBeDefined();
    expect(await resumeSession(idle.id, at(now, minutes(29) + minutes(31)))).toBeUndefined();

    const busy = await startSession('user-busy', now);
    for (let t = minutes(20); t < 12 * 60 * 60_000; t += minutes(20)) {
      expect(await resumeSession(busy.id, at(now, t)), `at ${t / 60_000} min`).toBeDefined();
    }
    expect(await resumeSession(busy.id, at(now, 12 * 3_600_000))).toBeUndefined();
  });

  it('opens nothing for a forged id, nor for an ended session', async () => {
    expect(await resumeSession('x'.repeat(43))).toBeUndefined();
    expect(await resumeSession('../../etc')).toBeUndefined();
    const session = await startSession('user-out');
    const live = await resumeSession(session.id);
    if (!live) throw new Error('no session');
    await endSession(live);
    expect(await resumeSession(session.id)).toBeUndefined();
  });
});
