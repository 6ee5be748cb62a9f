/**
 * The stage's per-key WAF rule, played on the laptop: requests carrying an `X-API-KEY-ID` are
 * counted per key id (lower-cased, as the rule's text transformation does) over a trailing window,
 * and a key over its limit is refused until enough of its requests have left the window.
 *
 * WAF's rate-based rule is an approximation of this: it aggregates counts and re-evaluates them
 * every few seconds, so on AWS a key is blocked a little after it crosses the limit and freed a
 * little after it falls back under. Here the count is exact and immediate, and only served
 * requests are counted, so `Retry-After` says when the next request will certainly be served.
 */
export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the key may call again (at least 1), when refused. */
  retryAfterSeconds: number;
}

export class PerKeyRateLimit {
  /** Per key, the times (ms) of its served requests within the window, oldest first. */
  readonly #served = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    readonly now: () => number = Date.now,
  ) {}

  take(keyId: string): RateDecision {
    const key = keyId.toLowerCase();
    const now = this.now();
    const times = (this.#served.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (times.length >= this.limit) {
      this.#served.set(key, times);
      const oldest = times[0] as number;
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
      };
    }
    times.push(now);
    this.#served.set(key, times);
    this.#forgetIdleKeys(now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Keys with nothing left in the window are dropped, so a host that runs for days keeps no history. */
  #forgetIdleKeys(now: number): void {
    if (this.#served.size < 1000) return;
    for (const [key, times] of this.#served) {
      if ((times.at(-1) ?? 0) <= now - this.windowMs) this.#served.delete(key);
    }
  }
}
