import { describe, expect, it } from 'vitest';
import { PerKeyRateLimit } from '#infra/local/rate-limit.ts';
import { apiKeyRateLimitPerMinute, defaultApiKeyRateLimitPerMinute } from '#infra/stage-config.ts';

function limitAt(limit: number, windowMs: number) {
  const clock = { now: 1_000_000 };
  return { clock, rateLimit: new PerKeyRateLimit(limit, windowMs, () => clock.now) };
}

describe('the local host’s per-key rate limit', () => {
  it('serves a key up to its limit over the trailing window, then refuses it until its oldest request leaves', () => {
    const { clock, rateLimit } = limitAt(3, 60_000);
    const burst = [1, 2, 3].map(() => {
      const { allowed } = rateLimit.take('key-a');
      clock.now += 1000;
      return allowed;
    });
    expect(burst).toEqual([true, true, true]);
    clock.now += 17_500;
    expect(rateLimit.take('key-a')).toEqual({ allowed: false, retryAfterSeconds: 40 });
    // Another key has its own count.
    expect(rateLimit.take('key-b').allowed).toBe(true);
    clock.now += 39_000;
    expect(rateLimit.take('key-a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.now += 501;
    expect(rateLimit.take('key-a').allowed).toBe(true);
    // The window trails: the two other requests of the first burst still count.
    expect(rateLimit.take('key-a').allowed).toBe(false);
  });

  it('counts a key id whatever its case, as the WAF rule lower-cases it', () => {
    const { rateLimit } = limitAt(1, 60_000);
    expect(rateLimit.take('AbC').allowed).toBe(true);
    expect(rateLimit.take('abc').allowed).toBe(false);
  });

  it('does not count refused requests: a key that keeps calling while refused is served once the window allows', () => {
    const { clock, rateLimit } = limitAt(2, 10_000);
    rateLimit.take('k');
    rateLimit.take('k');
    for (let second = 0; second < 10; second++) {
      clock.now += 999;
      rateLimit.take('k');
    }
    clock.now += 20;
    expect(rateLimit.take('k').allowed).toBe(true);
  });
});

describe('the per-key limit setting', () => {
  it('defaults to the stage’s 1,200 a minute and takes API_KEY_RATE_LIMIT_PER_MINUTE, within WAF’s bounds', () => {
    expect(defaultApiKeyRateLimitPerMinute).toBe(1200);
    expect(apiKeyRateLimitPerMinute({})).toBe(1200);
    expect(apiKeyRateLimitPerMinute({ API_KEY_RATE_LIMIT_PER_MINUTE: '300' })).toBe(300);
    expect(() => apiKeyRateLimitPerMinute({ API_KEY_RATE_LIMIT_PER_MINUTE: '5' })).toThrow(/from 10/);
    expect(() => apiKeyRateLimitPerMinute({ API_KEY_RATE_LIMIT_PER_MINUTE: 'lots' })).toThrow(/whole number/);
  });
});
