import { describe, expect, it } from 'vitest';
import {
  apiKeySecretMatches,
  apiKeySecretPrefix,
  hashApiKeySecret,
  newApiKeySecret,
} from '#shared/domain/api-key-secret.ts';

describe('API key secrets', () => {
  it('carry a recognisable prefix and 256 random bits', () => {
    const secret = newApiKeySecret();
    expect(secret.startsWith(apiKeySecretPrefix)).toBe(true);
    expect(Buffer.from(secret.slice(apiKeySecretPrefix.length), 'base64url')).toHaveLength(32);
    const many = new Set(Array.from({ length: 1000 }, newApiKeySecret));
    expect(many.size).toBe(1000);
  });

  it('are stored as a digest that does not contain the secret', () => {
    const secret = newApiKeySecret();
    const digest = hashApiKeySecret(secret);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(secret.slice(apiKeySecretPrefix.length, 20));
  });

  it('match only the secret they were made from', () => {
    const secret = newApiKeySecret();
    const digest = hashApiKeySecret(secret);
    expect(apiKeySecretMatches(secret, digest)).toBe(true);
    expect(apiKeySecretMatches(`${secret}x`, digest)).toBe(false);
    expect(apiKeySecretMatches(newApiKeySecret(), digest)).toBe(false);
    expect(apiKeySecretMatches(secret, 'abcd')).toBe(false);
  });
});
