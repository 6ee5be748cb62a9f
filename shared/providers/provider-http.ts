import { setTimeout as sleep } from 'node:timers/promises';
import { httpCall } from '#shared/aws/tracing.ts';
import { ProviderUnavailable } from '#shared/errors/providers.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { logger } from '#shared/logger.ts';

/** A provider's answer that is neither a success nor a server error: the call is not retried. */
export interface ProviderAnswer {
  status: number;
  body: unknown;
}

export interface ProviderCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  /**
   * Whether the call may be sent again after a timeout or a 5xx: only when the provider
   * deduplicates it (an idempotency key, a reference id) or it only reads.
   */
  retryable: boolean;
  /**
   * A server error that is the provider's final word all the same (MTN answers some refusals, an
   * unknown payer, with a 500 and a code): answered to the caller, not retried.
   */
  isFinalError?: (status: number, body: unknown) => boolean;
}

export interface CallPolicy {
  /** Per attempt: a provider that hangs must not hold the function to its own timeout. */
  timeoutMs: number;
  /** Attempts in all, the first included. */
  attempts: number;
  /** Before the second attempt; doubled for each further one. */
  backoffMs: number;
}

export const defaultCallPolicy: CallPolicy = { timeoutMs: 8_000, attempts: 3, backoffMs: 200 };

/**
 * One HTTP call to a provider, with a timeout per attempt and bounded retries (exponential backoff)
 * when the call is safe to repeat. Answers every status below 500 to the caller, which maps it;
 * throws ProviderUnavailable when the provider could not be reached or kept failing.
 */
export async function callProvider(
  provider: string,
  call: ProviderCall,
  policy: CallPolicy = defaultCallPolicy,
): Promise<ProviderAnswer> {
  const attempts = call.retryable ? policy.attempts : 1;
  let lastProblem = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await sleep(policy.backoffMs * 2 ** (attempt - 2));
    const traced = httpCall(call.method, new URL(call.url));
    try {
      const response = await fetch(call.url, {
        method: call.method,
        headers: {
          accept: 'application/json',
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
      const text = await response.text();
      traced(response.status);
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Left as text: a gateway's HTML error page, say.
      }
      if (response.status < 500 || call.isFinalError?.(response.status, body)) {
        return { status: response.status, body };
      }
      lastProblem = `status ${response.status}`;
    } catch (error) {
      traced(undefined);
      lastProblem = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
    }
    logger.warn('provider call failed', { provider, method: call.method, attempt, problem: lastProblem });
  }
  throw new ProviderUnavailable(`The ${provider} provider is unavailable (${lastProblem}); try again later`);
}

/**
 * The service keeps XOF amounts in cents; both providers take whole francs as a decimal string
 * (XOF has no minor unit). An amount that is not whole francs cannot be sent as asked: refused.
 */
export function wholeFrancs(amountCents: number, currency: string): string {
  if (currency !== 'XOF')
    throw new ValidationFailed([
      { field: 'currency', rule: 'in', message: `The provider only takes XOF, not ${currency}` },
    ]);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents % 100 !== 0) {
    throw new ValidationFailed([
      {
        field: 'amount',
        rule: 'whole_francs',
        message: `The provider takes whole francs only: ${amountCents} cents is not a whole number of francs`,
      },
    ]);
  }
  return String(amountCents / 100);
}
