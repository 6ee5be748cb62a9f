import { createHmac, timingSafeEqual } from 'node:crypto';
import { providerCredentials } from '#shared/aws/secrets.ts';
import { ProviderRefused, ProviderUnavailable } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import type {
  CallbackVerifier,
  CollectionOutcome,
  PaymentProvider,
  PayoutOutcome,
  PayoutStatus,
  VerifiedCallback,
} from '#shared/providers/port.ts';
import {
  type CallPolicy,
  callProvider,
  defaultCallPolicy,
  wholeFrancs,
} from '#shared/providers/provider-http.ts';

/**
 * Wave, behind the provider port: `waveProvider` calls out, `waveCallbacks` checks its webhooks.
 * Contracts, as published:
 * - Checkout API: https://docs.wave.com/checkout (POST /v1/checkout/sessions, GET
 *   /v1/checkout/sessions/:id). The session's `wave_launch_url` is both the payer's redirect and
 *   the QR payload; Wave has no push to the payer's phone, so the `direct` flow is refused.
 * - Payout API: https://docs.wave.com/payout (POST /v1/payout with an `idempotency-key` header,
 *   GET /v1/payouts/search?client_reference=…). Wave sends no payout webhook: a payout ends on
 *   POST's answer when it is final, or through the status query of the pending-transfers sweep.
 * - Checkout refund: POST /v1/checkout/sessions/:id/refund (https://docs.wave.com/checkout) gives a
 *   completed session's whole amount back to its payer; it takes no amount, so a partial refund is
 *   a payout to the payer's number instead. Its answer is final; a refund whose answer was lost is
 *   read back from the session (`payment_status` "refunded": to confirm on Wave's sandbox, the
 *   published list of that field's values stops at "succeeded") and asked again only while the
 *   session still reads "succeeded".
 * - Webhooks: https://docs.wave.com/webhook (signing secret strategy: `Wave-Signature:
 *   t=<unix seconds>,v1=<hex HMAC-SHA256 of t followed by the raw body>`; several v1 during a
 *   secret rotation).
 * Amounts are whole francs in a decimal string; the API key is a bearer token per business wallet.
 */
export interface WaveConfig {
  /** https://api.wave.com in production. */
  baseUrl: string;
  apiKey: () => Promise<string>;
  webhookSecret: () => Promise<string>;
  /** A signed event older (or newer) than this is a replay, refused. */
  signatureToleranceSeconds: number;
  policy: CallPolicy;
  now?: () => Date;
}

/** What the calls out need of the configuration. */
export type WaveApiConfig = Pick<WaveConfig, 'baseUrl' | 'apiKey' | 'policy'>;

/** What the webhook check needs of it: the signing secret and the replay window. */
export type WaveWebhookConfig = Pick<WaveConfig, 'webhookSecret' | 'signatureToleranceSeconds' | 'now'>;

export const waveSignatureHeader = 'wave-signature';

interface WaveError {
  code?: string;
  message?: string;
}

export interface WaveCheckoutSession {
  id: string;
  amount: string;
  currency: string;
  checkout_status: 'open' | 'complete' | 'expired';
  /** `refunded` after a checkout refund, as the adapter reads it (see above). */
  payment_status: 'processing' | 'cancelled' | 'succeeded' | 'refunded';
  client_reference: string | null;
  last_payment_error: { code: string; message: string } | null;
  wave_launch_url: string;
  success_url: string;
  error_url: string;
  transaction_id?: string | null;
  when_created: string;
  when_expires: string;
  when_completed?: string | null;
}

export interface WavePayout {
  id: string;
  currency: string;
  receive_amount: string;
  fee: string;
  mobile: string;
  name?: string;
  client_reference?: string | null;
  status: 'processing' | 'succeeded' | 'failed' | 'reversed';
  timestamp: string;
  payout_error?: { error_code: string; error_message: string } | null;
}

/** The failure codes of a payout (payout_error.error_code) that say a limit was hit. */
const limitCodes = new Set(['recipient-limit-exceeded', 'payout-limit-exceeded', 'receive-limit-exceeded']);

export const wavePayoutOutcome = (payout: WavePayout): PayoutStatus => {
  switch (payout.status) {
    case 'processing':
      return 'pending';
    case 'succeeded':
      return 'success';
    default:
      return payout.payout_error && limitCodes.has(payout.payout_error.error_code)
        ? 'limit_exceeded'
        : 'declined';
  }
};

const collectionOutcome = (session: WaveCheckoutSession): CollectionOutcome | undefined => {
  if (session.payment_status === 'succeeded') return 'success';
  if (session.checkout_status === 'expired' || session.payment_status === 'cancelled') {
    return session.last_payment_error?.code === 'insufficient-funds' ? 'insufficient_funds' : 'declined';
  }
  return undefined;
};

/** The `t` and every `v1` of a Wave-Signature header; undefined when it is not of that form. */
function parseSignature(header: string | undefined) {
  if (!header) return undefined;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}

export const signWaveBody = (secret: string, timestamp: number, rawBody: string) =>
  createHmac('sha256', secret).update(`${timestamp}${rawBody}`).digest('hex');

export function waveProvider(config: WaveApiConfig): PaymentProvider {
  const call = async (
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; idempotencyKey?: string; retryable: boolean },
  ) =>
    callProvider(
      'wave',
      {
        method,
        url: `${config.baseUrl}${path}`,
        headers: {
          authorization: `Bearer ${await config.apiKey()}`,
          ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        },
        body: options.body,
        retryable: options.retryable,
      },
      config.policy,
    );

  /** A 401/403 is the service's own key, never the payer's fault: nothing to fail them for. */
  const unexpected = (what: string, answer: { status: number; body: unknown }): never => {
    const error = answer.body as WaveError | undefined;
    logger.error('wave refused a call the service should not have made', {
      what,
      status: answer.status,
      code: error?.code,
    });
    throw new ProviderUnavailable(`Wave could not ${what} (${error?.code ?? answer.status})`);
  };

  return {
    async startCollection(request) {
      if (request.flow === 'direct') {
        throw new ProviderRefused('Wave does not prompt the payer’s phone: use the redirect or QR flow');
      }
      const amount = wholeFrancs(request.amountCents, request.currency);
      // Not retried: Wave takes no idempotency key for sessions, and a second one would be a second
      // way to pay. The payer can start again from the hosted page.
      const answer = await call('POST', '/v1/checkout/sessions', {
        body: {
          amount,
          currency: 'XOF',
          client_reference: request.paymentRequestId,
          success_url: request.returnUrl,
          error_url: request.returnUrl,
        },
        retryable: false,
      });
      if (answer.status === 401 || answer.status === 403)
        return unexpected('open a checkout session', answer);
      if (answer.status !== 200 && answer.status !== 201) {
        const error = answer.body as WaveError | undefined;
        throw new ProviderRefused(`Wave refused the checkout session: ${error?.message ?? answer.status}`);
      }
      const session = answer.body as WaveCheckoutSession;
      return {
        providerReference: session.id,
        ...(request.flow === 'redirect'
          ? { checkoutUrl: session.wave_launch_url }
          : { qrPayload: session.wave_launch_url }),
      };
    },

    async collectionStatus(providerReference) {
      const answer = await call('GET', `/v1/checkout/sessions/${encodeURIComponent(providerReference)}`, {
        retryable: true,
      });
      if (answer.status === 404) return 'not_found';
      if (answer.status !== 200) return unexpected('read a checkout session', answer);
      return collectionOutcome(answer.body as WaveCheckoutSession) ?? 'pending';
    },

    async startPayout(request) {
      if (request.method !== 'wave' || !request.beneficiaryNumber) {
        throw new ProviderRefused('Wave pays out to a Wave mobile number only');
      }
      const answer = await call('POST', '/v1/payout', {
        body: {
          currency: 'XOF',
          receive_amount: wholeFrancs(request.amountCents, request.currency),
          mobile: request.beneficiaryNumber,
          name: request.beneficiaryName,
          client_reference: request.transferId,
        },
        // The transfer's id: a retried POST (timeout, 5xx) is the same payout to Wave.
        idempotencyKey: request.transferId,
        retryable: true,
      });
      if (answer.status === 401 || answer.status === 403) return unexpected('send a payout', answer);
      if (answer.status !== 200) {
        const error = answer.body as WaveError | undefined;
        throw new ProviderRefused(`Wave refused the payout: ${error?.message ?? answer.status}`);
      }
      const payout = answer.body as WavePayout;
      const status = wavePayoutOutcome(payout);
      return {
        providerReference: payout.id,
        ...(status === 'pending' || status === 'not_found' ? {} : { outcome: status as PayoutOutcome }),
      };
    },

    // Wave refunds a whole checkout session only; a part of one goes back by payout.
    refundsCollection: (_provider, whole) => whole,

    async refundCollection(request) {
      // Not retried: a second refund of the session is not Wave's to deduplicate by our id; an
      // answer lost on the way leaves the refund pending, read back later from the session.
      const answer = await call(
        'POST',
        `/v1/checkout/sessions/${encodeURIComponent(request.collectionReference)}/refund`,
        { retryable: false },
      );
      if (answer.status === 401 || answer.status === 403)
        return unexpected('refund a checkout session', answer);
      if (answer.status !== 200) {
        const error = answer.body as WaveError | undefined;
        throw new ProviderRefused(`Wave refused the refund: ${error?.message ?? answer.status}`);
      }
      return { providerReference: request.collectionReference, outcome: 'success' };
    },

    async collectionRefundStatus(request) {
      const answer = await call(
        'GET',
        `/v1/checkout/sessions/${encodeURIComponent(request.collectionReference)}`,
        { retryable: true },
      );
      if (answer.status !== 200) return unexpected('read a checkout session', answer);
      // Wave answers a refund at once: a session still `succeeded` minutes later was never refunded
      // (asked again then); anything else unknown is left pending, never released on a guess.
      const status = (answer.body as WaveCheckoutSession).payment_status;
      return status === 'refunded' ? 'success' : status === 'succeeded' ? 'not_found' : 'pending';
    },

    async payoutStatus(transferId) {
      const answer = await call(
        'GET',
        `/v1/payouts/search?client_reference=${encodeURIComponent(transferId)}`,
        {
          retryable: true,
        },
      );
      if (answer.status !== 200) return unexpected('search payouts', answer);
      const payouts = (answer.body as { result?: WavePayout[] }).result ?? [];
      const payout = payouts[0];
      return payout ? wavePayoutOutcome(payout) : 'not_found';
    },
  };
}

/** Wave's webhooks, as the callback routes check them (the `Wave-Signature` rules above). */
export function waveCallbacks(config: WaveWebhookConfig): CallbackVerifier {
  const now = config.now ?? (() => new Date());

  /** Verified event body, or undefined when the signature is missing, wrong, or out of the window. */
  async function verifiedEvent(headers: Record<string, string | undefined>, rawBody: string) {
    const signature = parseSignature(headers[waveSignatureHeader]);
    if (!signature) return undefined;
    const age = Math.abs(now().getTime() / 1000 - signature.timestamp);
    if (age > config.signatureToleranceSeconds) {
      logger.warn('wave event outside the signature window', { age });
      return undefined;
    }
    const expected = Buffer.from(
      signWaveBody(await config.webhookSecret(), signature.timestamp, rawBody),
      'hex',
    );
    if (!signature.signatures.some((presented) => timingSafeEqual(expected, Buffer.from(presented, 'hex')))) {
      return undefined;
    }
    try {
      return JSON.parse(rawBody) as { id?: unknown; type?: unknown; data?: Partial<WaveCheckoutSession> };
    } catch {
      return undefined;
    }
  }

  return {
    async verifyCallback(headers, rawBody): Promise<VerifiedCallback | undefined> {
      const event = await verifiedEvent(headers, rawBody);
      const session = event?.data;
      if (
        !event ||
        typeof event.id !== 'string' ||
        !session ||
        typeof session.id !== 'string' ||
        typeof session.client_reference !== 'string'
      ) {
        return undefined;
      }
      let outcome: CollectionOutcome | undefined;
      if (event.type === 'checkout.session.completed' && session.payment_status === 'succeeded') {
        outcome = 'success';
      } else if (event.type === 'checkout.session.payment_failed') {
        outcome =
          session.last_payment_error?.code === 'insufficient-funds' ? 'insufficient_funds' : 'declined';
      }
      if (!outcome) return undefined;
      return {
        callbackId: event.id,
        provider: 'wave',
        providerReference: session.id,
        paymentRequestId: session.client_reference,
        outcome,
      };
    },

    async verifyPayoutCallback() {
      // Wave sends no payout event: nothing arriving here is Wave's.
      return undefined;
    },
  };
}

interface WaveSecret {
  apiKey: string;
  webhookSecret: string;
}

/**
 * The stage's Wave configuration, for either side of the adapter: its base URL from WAVE_API_URL,
 * its keys from the WAVE_PROVIDER secret (JSON `{"apiKey","webhookSecret"}`), read once per
 * container.
 */
export function waveConfigFromEnvironment(): WaveConfig {
  const secret = () => providerCredentials<WaveSecret>('wave');
  return {
    baseUrl: process.env.WAVE_API_URL ?? 'https://api.wave.com',
    apiKey: async () => (await secret()).apiKey,
    webhookSecret: async () => (await secret()).webhookSecret,
    // Wave's docs advise a few minutes; five, as most signers use.
    signatureToleranceSeconds: 300,
    policy: defaultCallPolicy,
  };
}
