import { describe, expect, it } from 'vitest';
import {
  collectionGraceMs,
  endsAt,
  expiresAtOf,
  hasEnded,
  minLifetimeSeconds,
  payerMayRetry,
} from '#shared/domain/payment-lifetime.ts';

const now = new Date('2026-11-20T14:00:00.000Z');
const grace = 120_000;

describe('the expiry a payment request asks for', () => {
  it('is 30 minutes from now when none is given', () => {
    expect(expiresAtOf(undefined, now, 60)).toEqual({ expiresAt: '2026-11-20T14:30:00.000Z' });
  });

  it('is kept in UTC with milliseconds, whatever offset it was written with', () => {
    expect(expiresAtOf('2026-11-20T16:00:00+01:00', now, 60)).toEqual({
      expiresAt: '2026-11-20T15:00:00.000Z',
    });
  });

  it('must be at least the stage’s minimum from now, and within 7 days', () => {
    expect(expiresAtOf('2026-11-20T14:00:59Z', now, 60)).toEqual({
      refused: 'The payment request must expire at least 60 seconds from now.',
    });
    expect(expiresAtOf('2026-11-20T14:01:00Z', now, 60)).toEqual({ expiresAt: '2026-11-20T14:01:00.000Z' });
    expect(expiresAtOf('2026-11-27T14:00:00Z', now, 60)).toEqual({ expiresAt: '2026-11-27T14:00:00.000Z' });
    expect(expiresAtOf('2026-11-27T14:00:00.001Z', now, 60)).toEqual({
      refused: 'The payment request must expire within 7 days.',
    });
  });

  it('takes its minimum and grace from the stage, a minute and two by default', () => {
    expect(minLifetimeSeconds({})).toBe(60);
    expect(minLifetimeSeconds({ PAYMENT_REQUEST_MIN_LIFETIME_SECONDS: '2' })).toBe(2);
    expect(minLifetimeSeconds({ PAYMENT_REQUEST_MIN_LIFETIME_SECONDS: 'soon' })).toBe(60);
    expect(collectionGraceMs({})).toBe(120_000);
    expect(collectionGraceMs({ PAYMENT_COLLECTION_GRACE_SECONDS: '3' })).toBe(3_000);
  });
});

describe('an unpaid request', () => {
  const request = { status: 'pending', expiresAt: '2026-11-20T14:30:00.000Z' };
  const at = (time: string) => new Date(`2026-11-20T${time}Z`);

  it('has ended from the instant of its expiresAt when no collection is under way', () => {
    expect(hasEnded(request, at('14:29:59.999'), grace)).toBe(false);
    expect(hasEnded(request, at('14:30:00.000'), grace)).toBe(true);
  });

  it('gives a collection under way the grace for the provider’s answer', () => {
    const started = { ...request, providerReference: 'sbx_1' };
    expect(endsAt(started, grace)).toBe(Date.parse('2026-11-20T14:32:00.000Z'));
    expect(hasEnded(started, at('14:31:59.999'), grace)).toBe(false);
    expect(hasEnded(started, at('14:32:00.000'), grace)).toBe(true);
  });

  it('gives no grace to a collection that already failed', () => {
    const failed = { ...request, providerReference: 'sbx_1', attemptError: 'declined' };
    expect(hasEnded(failed, at('14:30:00.000'), grace)).toBe(true);
  });

  it('is never over once it is no longer pending', () => {
    expect(hasEnded({ ...request, status: 'success' }, at('15:00:00'), grace)).toBe(false);
  });
});

describe('trying again after a failed collection', () => {
  it('is for the hosted page (redirect mode, payment links) only', () => {
    expect(payerMayRetry({ type: 'redirect', forceProviderDirect: false })).toBe(true);
    expect(payerMayRetry({ type: 'redirect', forceProviderDirect: true })).toBe(false);
    expect(payerMayRetry({ type: 'soundbox', forceProviderDirect: false })).toBe(false);
  });
});
