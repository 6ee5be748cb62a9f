/**
 * The largest request the service takes, enforced before any handler runs: by the stage's WAF
 * (infra/constructs/web-acl.ts) and by the local host's gateway, so both refuse the same requests.
 *
 * The largest body any route needs is a payment request with two 2,048-character return URLs
 * (about 5 KB); 16 KiB is also the most of a body that WAF inspects on API Gateway without extra
 * charge, so a larger one is refused outright rather than half-inspected.
 */
export const requestLimits = {
  bodyBytes: 16 * 1024,
  /** Path and query string together, as received (percent-escapes included). */
  targetChars: 4096,
} as const;
