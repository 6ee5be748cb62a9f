import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key secrets: 32 random bytes (256 bits) behind a recognisable prefix, so secret scanners and
 * people can tell one at a glance. Only the SHA-256 digest is stored. A slow password hash is not
 * needed: the secret is uniformly random and far too long to guess, and a fast digest keeps
 * authentication cheap.
 */
export const apiKeySecretPrefix = 'ppsk_';

export function newApiKeySecret(): string {
  return apiKeySecretPrefix + randomBytes(32).toString('base64url');
}

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares in constant time: digests have a fixed length, so nothing leaks through timing. */
export function apiKeySecretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKeySecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
