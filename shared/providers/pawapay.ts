import { providerCredentials } from '#shared/aws/secrets.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { countryOfNumber } from '#shared/domain/phone-numbers.ts';
import { ProviderRefused, ProviderUnavailable } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import { signatureProblem } from '#shared/providers/http-signatures.ts';
import { operatorStatusCacheMs } from '#shared/providers/operator-health.ts';
import { pawapayMethodOf, pawapayProviderOf } from '#shared/providers/pawapay-providers.ts';
import type {
  CallbackVerifier,
  CollectionOutcome,
  CollectionStatus,
  PaymentProvider,
  PayoutOutcome,
  PayoutStatus,
  VerifiedCallback,
  VerifiedPayoutCallback,
} from '#shared/providers/port.ts';
import {
  type CallPolicy,
  callProvider,
  defaultCallPolicy,
  wholeFrancs,
} from '#shared/providers/provider-http.ts';

/**
 * pawaPay's Merchant API v2, behind the provider port: Orange Money, Moov Money and MTN MoMo of
 * the countries their own adapters do not serve. Contracts, as published:
 * - Deposits: POST /v2/deposits with a `depositId` (UUID v4) we choose, the payer's MSISDN and
 *   provider code (`payer: {type: "MMO", accountDetails: {phoneNumber, provider}}`), `amount` a
 *   decimal string; answered 200 with `status` ACCEPTED, REJECTED (`failureReason.failureCode`) or
 *   DUPLICATE_IGNORED (the same id sent before: started). GET /v2/deposits/{depositId} answers
 *   `{status: FOUND|NOT_FOUND, data: {status: ACCEPTED|PROCESSING|IN_RECONCILIATION|COMPLETED|FAILED,
 *   …}}` (https://docs.pawapay.io/v2/api-reference/deposits/initiate-deposit,
 *   https://docs.pawapay.io/v2/api-reference/deposits/check-deposit-status).
 * - Payouts: POST /v2/payouts (`payoutId`, `recipient`) and GET /v2/payouts/{payoutId}, the same
 *   shapes, ENQUEUED while the provider is delayed (https://docs.pawapay.io/v2/api-reference/payouts/initiate-payout).
 * - Refunds: POST /v2/refunds (`refundId`, `depositId`, `amount`: any part of a completed
 *   deposit) and GET /v2/refunds/{refundId} (https://docs.pawapay.io/v2/api-reference/refunds/initiate-refund).
 * - Callbacks: POSTed to the URLs of pawaPay's dashboard, one per kind, the body the status
 *   check's `data`; signed, when the account asks it, by RFC 9421 with pawaPay's published key
 *   (https://docs.pawapay.io/v2/api-reference/deposits/deposit-callback,
 *   https://docs.pawapay.io/v2/docs/signatures). A signature is checked when the stage holds the
 *   key; whatever the signature, a callback moves money only when the status check agrees.
 * - Failure codes: https://docs.pawapay.io/v2/docs/failure_codes.
 * Every id we send is our own record's id where one exists (transfer, refund), so a lost answer is
 * read back by the status check; a deposit's id is new per attempt (a payer may try twice), and
recorded on the payment request before the call.
 * - Availability: GET /v2/availability, each provider's status per operation; a CLOSED operator is
 *   not offered (https://docs.pawapay.io/v2/api-reference/toolkit/availability).
 * pawaPay shows no QR: a soundbox's collection is refused.
 */
export interface PawapayConfig {
  /** https://api.pawapay.io in production, https://api.sandbox.pawapay.io on pawaPay's sandbox. */
  baseUrl: string;
  apiToken: () => Promise<string>;
  /** pawaPay's callback-signing key (PEM); without one, callbacks are confirmed by the status check alone. */
  callbackPublicKey: () => Promise<string | undefined>;
  policy: CallPolicy;
  now?: () => number;
}

/** The three kinds of transaction pawaPay keeps, each with its path and callback route. */
export type PawapayKind = 'deposits' | 'payouts' | 'refunds';

const idField = { deposits: 'depositId', payouts: 'payoutId', refunds: 'refundId' } as const;

export interface PawapayTransaction {
  depositId?: string;
  payoutId?: string;
  refundId?: string;
  status: 'ACCEPTED' | 'ENQUEUED' | 'PROCESSING' | 'IN_RECONCILIATION' | 'COMPLETED' | 'FAILED' | string;
  amount: string;
  currency: string;
  country?: string;
  payer?: { type: string; accountDetails: { phoneNumber: string; provider: string } };
  recipient?: { type: string; accountDetails: { phoneNumber: string; provider: string } };
  failureReason?: { failureCode?: string; failureMessage?: string };
  providerTransactionId?: string;
  metadata?: Record<string, string>;
}

/** Answers to a start whose `failureCode` says pawaPay cannot take it now: worth another try later. */
const unavailableCodes = new Set([
  'PROVIDER_TEMPORARILY_UNAVAILABLE',
  'PAWAPAY_WALLET_OUT_OF_FUNDS',
  'UNKNOWN_ERROR',
]);

const collectionStatusOf = (transaction: PawapayTransaction): CollectionStatus => {
  if (transaction.status === 'COMPLETED') return 'success';
  if (transaction.status !== 'FAILED') return 'pending';
  return transaction.failureReason?.failureCode === 'INSUFFICIENT_BALANCE'
    ? 'insufficient_funds'
    : 'declined';
};

const payoutStatusOf = (transaction: PawapayTransaction): PayoutStatus => {
  if (transaction.status === 'COMPLETED') return 'success';
  if (transaction.status !== 'FAILED') return 'pending';
  return /LIMIT_REACHED$/.test(transaction.failureReason?.failureCode ?? '') ? 'limit_exceeded' : 'declined';
};

const msisdn = (phone: string) => phone.replace(/^\+/, '');

/** The pawaPay provider code for a method and a number of the zone; refused where pawaPay has none. */
function providerCodeFor(method: ProviderCode, phone: string): string {
  const country = countryOfNumber(phone);
  const code = country ? pawapayProviderOf(method, country) : undefined;
  if (!code) throw new ProviderRefused(`pawaPay does not carry ${method} for this number's country`);
  return code;
}

/** pawaPay's API as the service reaches it: both sides of the adapter sit on one. */
export interface PawapayApi {
  /** The transaction as the status check answers it; undefined when pawaPay does not know it. */
  transaction(kind: PawapayKind, id: string): Promise<PawapayTransaction | undefined>;
  /** Starts one; returns when pawaPay accepted it (or had it already), throws when it refused. */
  start(kind: PawapayKind, body: Record<string, unknown>): Promise<void>;
  callbackPublicKey(): Promise<string | undefined>;
  /** Each provider's status per operation (`ORANGE_BFA:DEPOSIT` → CLOSED), read at most once a minute. */
  availability(): Promise<ReadonlyMap<string, string>>;
  now(): number;
}

/** pawaPay's operation types, as its availability names them. */
const operationTypes = { collection: 'DEPOSIT', payout: 'PAYOUT', refund: 'REFUND' } as const;

interface AvailabilityCountry {
  country?: string;
  providers?: {
    provider?: string;
    operationTypes?: { operationType?: string; status?: string }[];
  }[];
}

/** GET /v2/availability's answer as a map; providers grouped by country, a status per operation type. */
function availabilityMap(body: unknown): Map<string, string> {
  const statuses = new Map<string, string>();
  for (const country of Array.isArray(body) ? (body as AvailabilityCountry[]) : []) {
    for (const { provider, operationTypes: types } of country.providers ?? []) {
      for (const { operationType, status } of Array.isArray(types) ? types : []) {
        if (provider && operationType && status) statuses.set(`${provider}:${operationType}`, status);
      }
    }
  }
  return statuses;
}

export function pawapayApi(config: PawapayConfig): PawapayApi {
  const headers = async () => ({ authorization: `Bearer ${await config.apiToken()}` });

  async function transaction(kind: PawapayKind, id: string): Promise<PawapayTransaction | undefined> {
    const answer = await callProvider(
      'pawapay',
      {
        method: 'GET',
        url: `${config.baseUrl}/v2/${kind}/${encodeURIComponent(id)}`,
        headers: await headers(),
        retryable: true,
      },
      config.policy,
    );
    const body = answer.body as { status?: string; data?: PawapayTransaction } | undefined;
    if (answer.status !== 200) {
      throw new ProviderUnavailable(`pawaPay did not answer the status of ${id} (${answer.status})`);
    }
    if (body?.status === 'NOT_FOUND') return undefined;
    if (body?.status !== 'FOUND' || !body.data) {
      throw new ProviderUnavailable(`pawaPay answered the status of ${id} in an unknown shape`);
    }
    return body.data;
  }

  async function start(kind: PawapayKind, body: Record<string, unknown>): Promise<void> {
    // Safe to send again: pawaPay ignores an id it has (DUPLICATE_IGNORED).
    const answer = await callProvider(
      'pawapay',
      {
        method: 'POST',
        url: `${config.baseUrl}/v2/${kind}`,
        headers: await headers(),
        body,
        retryable: true,
      },
      config.policy,
    );
    const result = answer.body as
      | { status?: string; failureReason?: { failureCode?: string; failureMessage?: string } }
      | undefined;
    const code = result?.failureReason?.failureCode;
    if (answer.status === 200 && (result?.status === 'ACCEPTED' || result?.status === 'DUPLICATE_IGNORED'))
      return;
    if (answer.status === 401 || answer.status === 403) {
      logger.error('pawapay refused the service’s token', { status: answer.status, code });
      throw new ProviderUnavailable('pawaPay refused the service’s credentials');
    }
    if (code && unavailableCodes.has(code))
      throw new ProviderUnavailable(`pawaPay cannot take it now (${code})`);
    throw new ProviderRefused(`pawaPay refused: ${code ?? answer.status}`);
  }

  const now = config.now ?? Date.now;
  let published: { at: number; statuses: Promise<ReadonlyMap<string, string>> } | undefined;

  /**
   * pawaPay's published availability (https://docs.pawapay.io/v2/api-reference/toolkit/availability):
   * OPERATIONAL, DELAYED (payouts enqueued, paid later) or CLOSED (every request rejected). Not
   * known is not closed: the start itself will tell.
   */
  function availability(): Promise<ReadonlyMap<string, string>> {
    if (published && now() - published.at < operatorStatusCacheMs()) return published.statuses;
    const statuses = (async () => {
      const answer = await callProvider(
        'pawapay',
        {
          method: 'GET',
          url: `${config.baseUrl}/v2/availability`,
          headers: await headers(),
          retryable: true,
        },
        // A page waits on it: a slow answer is no answer (not closed), never a slow page.
        { ...config.policy, attempts: 1, timeoutMs: Math.min(config.policy.timeoutMs, 2_000) },
      );
      if (answer.status !== 200)
        throw new ProviderUnavailable(`pawaPay availability answered ${answer.status}`);
      return availabilityMap(answer.body);
    })().catch((error: unknown) => {
      logger.warn('pawapay availability not read', { error: error as Error });
      published = undefined;
      return new Map<string, string>();
    });
    published = { at: now(), statuses };
    return statuses;
  }

  return {
    transaction,
    start,
    callbackPublicKey: config.callbackPublicKey,
    availability,
    now,
  };
}

/** pawaPay called out: deposits, payouts and refunds, and their status checks. */
export function pawapayProvider(api: PawapayApi): PaymentProvider {
  return {
    namesCollectionsByOurId: true,

    async operatorClosed(method, country, operation) {
      const code = pawapayProviderOf(method, country);
      if (!code) return false;
      return (await api.availability()).get(`${code}:${operationTypes[operation]}`) === 'CLOSED';
    },

    async startCollection(request) {
      if (request.flow === 'qr' || !request.payerPhone) {
        throw new ProviderRefused(
          'pawaPay prompts the payer’s phone: it needs the payer’s number, and shows no QR',
        );
      }
      // Recorded on the request before this call (namesCollectionsByOurId): a lost answer is read back.
      const depositId = request.collectionId;
      await api.start('deposits', {
        depositId,
        payer: {
          type: 'MMO',
          accountDetails: {
            phoneNumber: msisdn(request.payerPhone),
            provider: providerCodeFor(request.provider, request.payerPhone),
          },
        },
        amount: wholeFrancs(request.amountCents, request.currency),
        currency: 'XOF',
        clientReferenceId: request.paymentRequestId,
        metadata: [{ paymentRequestId: request.paymentRequestId }],
      });
      // The payer's phone shows the prompt: a payer on the hosted page waits on its return page.
      return {
        providerReference: depositId,
        ...(request.flow === 'redirect' ? { checkoutUrl: request.returnUrl } : {}),
      };
    },

    async collectionStatus(depositId) {
      const found = await api.transaction('deposits', depositId);
      return found ? collectionStatusOf(found) : 'not_found';
    },

    async startPayout(request) {
      if (request.method === 'bank' || !request.beneficiaryNumber) {
        throw new ProviderRefused('pawaPay pays out to a mobile-money number only');
      }
      await api.start('payouts', {
        payoutId: request.transferId,
        recipient: {
          type: 'MMO',
          accountDetails: {
            phoneNumber: msisdn(request.beneficiaryNumber),
            provider: providerCodeFor(request.method, request.beneficiaryNumber),
          },
        },
        amount: wholeFrancs(request.amountCents, request.currency),
        currency: 'XOF',
        clientReferenceId: request.transferId,
      });
      return { providerReference: request.transferId };
    },

    async payoutStatus(transferId) {
      const found = await api.transaction('payouts', transferId);
      return found ? payoutStatusOf(found) : 'not_found';
    },

    // pawaPay refunds any part of a completed deposit, to its payer.
    refundsCollection: () => true,

    async refundCollection(request) {
      await api.start('refunds', {
        refundId: request.refundId,
        depositId: request.collectionReference,
        amount: wholeFrancs(request.amountCents, request.currency),
        currency: 'XOF',
      });
      return { providerReference: request.refundId };
    },

    async collectionRefundStatus(request) {
      const found = await api.transaction('refunds', request.refundId);
      return found ? payoutStatusOf(found) : 'not_found';
    },
  };
}

/** Where pawaPay's dashboard is told to send each kind's callbacks, under the stage's base URL. */
export const pawapayCallbackPath = (kind: PawapayKind) => `/provider_callbacks/pawapay/${kind}`;

/**
 * pawaPay's callbacks of one kind, as the callback route checks them: the signature when the stage
 * holds pawaPay's key, then the status check, which alone is believed.
 */
export function pawapayCallbacks(api: PawapayApi, kind: PawapayKind): CallbackVerifier {
  async function confirmed(
    headers: Record<string, string | undefined>,
    rawBody: string,
    target: { method: string; url: string } | undefined,
  ): Promise<PawapayTransaction | undefined> {
    const key = await api.callbackPublicKey();
    if (key) {
      const problem = target
        ? signatureProblem({ ...target, headers, rawBody }, key, api.now())
        : 'no target to check the signature against';
      if (problem) {
        logger.warn('pawapay callback signature refused', { kind, problem });
        return undefined;
      }
    }
    let claimed: Partial<PawapayTransaction>;
    try {
      claimed = JSON.parse(rawBody) as Partial<PawapayTransaction>;
    } catch {
      return undefined;
    }
    const id = claimed[idField[kind]];
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const actual = await api.transaction(kind, id);
    if (!actual || (actual.status !== 'COMPLETED' && actual.status !== 'FAILED')) return undefined;
    if (claimed.status !== actual.status || Number(claimed.amount) !== Number(actual.amount)) {
      logger.warn('pawapay callback disagrees with the status check: ignored', {
        kind,
        id,
        claimed: claimed.status,
        actual: actual.status,
      });
      return undefined;
    }
    return { ...actual, [idField[kind]]: id };
  }

  return {
    async verifyCallback(headers, rawBody, _query, target): Promise<VerifiedCallback | undefined> {
      if (kind !== 'deposits') return undefined;
      const actual = await confirmed(headers, rawBody, target);
      const paymentRequestId = actual?.metadata?.paymentRequestId;
      const provider = pawapayMethodOf(actual?.payer?.accountDetails.provider);
      if (!actual?.depositId || !paymentRequestId || !provider) return undefined;
      const phone = actual.payer?.accountDetails.phoneNumber;
      return {
        callbackId: `pawapay:${actual.depositId}:${actual.status}`,
        provider,
        providerReference: actual.depositId,
        paymentRequestId,
        outcome: collectionStatusOf(actual) as CollectionOutcome,
        payerPhone: phone ? `+${phone}` : undefined,
      };
    },

    async verifyPayoutCallback(
      headers,
      rawBody,
      _query,
      target,
    ): Promise<VerifiedPayoutCallback | undefined> {
      if (kind === 'deposits') return undefined;
      const actual = await confirmed(headers, rawBody, target);
      const id = actual?.[idField[kind]];
      const method = pawapayMethodOf(actual?.recipient?.accountDetails.provider);
      if (!actual || !id || !method) return undefined;
      return {
        callbackId: `pawapay:${id}:${actual.status}`,
        method,
        providerReference: id,
        transferId: id,
        outcome: payoutStatusOf(actual) as PayoutOutcome,
      };
    },
  };
}

let environmentApi: PawapayApi | undefined;

interface PawapayCredentials {
  apiToken: string;
  callbackPublicKey?: string;
}

/**
 * The stage's pawaPay API, one per container: base URL from PAWAPAY_BASE_URL (pawaPay's sandbox by
 * default), the token and the optional callback key from the
 * PAWAPAY_PROVIDER secret (JSON `{"apiToken", "callbackPublicKey"?}`), read once per container.
 */
export function pawapayApiFromEnvironment(): PawapayApi {
  environmentApi ??= pawapayApi({
    baseUrl: (process.env.PAWAPAY_BASE_URL ?? 'https://api.sandbox.pawapay.io').replace(/\/$/, ''),
    apiToken: async () => (await providerCredentials<PawapayCredentials>('pawapay')).apiToken,
    callbackPublicKey: async () =>
      (await providerCredentials<PawapayCredentials>('pawapay')).callbackPublicKey,
    policy: defaultCallPolicy,
  });
  return environmentApi;
}
