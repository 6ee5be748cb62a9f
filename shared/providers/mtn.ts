import { randomUUID } from 'node:crypto';
import { providerCredentials } from '#shared/aws/secrets.ts';
import { ProviderRefused, ProviderUnavailable } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import type {
  CallbackVerifier,
  CollectionOutcome,
  CollectionStatus,
  PaymentProvider,
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
 * MTN Mobile Money (MoMo Open API), behind the provider port: `mtnProvider` calls out,
 * `mtnCallbacks` checks its callbacks, both on one `mtnApi`. Contracts, as published:
 * - Token: POST /{product}/token/ with Basic auth of the API user and API key and the product's
 *   `Ocp-Apim-Subscription-Key`; answers `{access_token, token_type, expires_in}`
 *   (https://momodeveloper.mtn.com/api-documentation/api-description).
 * - Collection: POST /collection/v1_0/requesttopay with `X-Reference-Id` (a UUID v4 the caller
 *   chooses, the transaction's id), `X-Target-Environment`, `X-Callback-Url`; answers 202 and the
 *   payer's phone is prompted. GET /collection/v1_0/requesttopay/{referenceId} answers its status,
 *   PENDING, SUCCESSFUL or FAILED with a `reason`
 *   (https://momodeveloper.mtn.com/docs/services/collection/operations/requesttopay-POST,
 *   https://momodeveloper.mtn.com/docs/services/collection/operations/requesttopay-referenceId-GET).
 * - Disbursement: POST /disbursement/v1_0/transfer and GET /disbursement/v1_0/transfer/{referenceId},
 *   the same shapes with `payee` for `payer`.
 * - Refund (of the Disbursement product): POST /disbursement/v1_0/refund with `referenceIdToRefund`,
 *   the request to pay refunded, whole or in part; GET /disbursement/v1_0/refund/{referenceId}, the
 *   same status answer (https://momodeveloper.mtn.com/api-documentation/api-description).
 * - Callbacks: sent once, unsigned, as a POST or PUT whose body is the status answer
 *   (https://momodeveloper.mtn.com/api-documentation/callback). Nothing in one is believed: it only
 *   makes the service ask the status, and a callback whose status the query does not confirm is
 *   ignored. MTN does not retry callbacks; the sweeps poll what never calls back.
 * Amounts are whole francs in a decimal string; numbers are MSISDNs without the `+`.
 */
export interface MtnProductCredentials {
  subscriptionKey: string;
  apiUser: string;
  apiKey: string;
}

export interface MtnCredentials {
  collection: MtnProductCredentials;
  disbursement: MtnProductCredentials;
}

export interface MtnConfig {
  /** https://proxy.momoapi.mtn.com in production, https://sandbox.momodeveloper.mtn.com for MTN's sandbox. */
  baseUrl: string;
  /** `mtnivorycoast` in production in Côte d'Ivoire, `sandbox` on MTN's sandbox. */
  targetEnvironment: string;
  credentials: () => Promise<MtnCredentials>;
  policy: CallPolicy;
  now?: () => number;
}

export type MtnProduct = 'collection' | 'disbursement';

/** What a reference id names: a request to pay, a transfer, or a refund (of the disbursement product). */
export type MtnResource = MtnProduct | 'refund';

const resourcePaths: Record<MtnResource, { product: MtnProduct; path: string }> = {
  collection: { product: 'collection', path: '/v1_0/requesttopay' },
  disbursement: { product: 'disbursement', path: '/v1_0/transfer' },
  refund: { product: 'disbursement', path: '/v1_0/refund' },
};

export interface MtnTransaction {
  amount: string;
  currency: string;
  financialTransactionId?: string;
  externalId: string;
  payer?: { partyIdType: string; partyId: string };
  payee?: { partyIdType: string; partyId: string };
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  /** An object `{code, message}` in the reference, a bare code in some answers: both are read. */
  reason?: { code?: string; message?: string } | string;
}

const reasonCode = (transaction: MtnTransaction) =>
  typeof transaction.reason === 'string' ? transaction.reason : transaction.reason?.code;

const insufficientReasons = new Set(['NOT_ENOUGH_FUNDS', 'PAYER_LIMIT_REACHED']);

const mtnCollectionStatus = (transaction: MtnTransaction): CollectionStatus => {
  if (transaction.status === 'PENDING') return 'pending';
  if (transaction.status === 'SUCCESSFUL') return 'success';
  return insufficientReasons.has(reasonCode(transaction) ?? '') ? 'insufficient_funds' : 'declined';
};

const mtnPayoutStatus = (transaction: MtnTransaction): PayoutStatus => {
  if (transaction.status === 'PENDING') return 'pending';
  if (transaction.status === 'SUCCESSFUL') return 'success';
  return /LIMIT/.test(reasonCode(transaction) ?? '') ? 'limit_exceeded' : 'declined';
};

/** Answers MTN gives at once for a number that cannot pay or be paid: refused, not unavailable. */
const refusedCodes = new Set([
  'PAYER_NOT_FOUND',
  'PAYEE_NOT_FOUND',
  'NOT_ALLOWED',
  'PAYEE_NOT_ALLOWED_TO_RECEIVE',
]);

const msisdn = (phone: string) => phone.replace(/^\+/, '');

/** The query parameter of the callback URL that names the transaction (MTN's bodies do not). */
export const mtnReferenceParameter = 'reference';

/** The query parameter that says a payout callback is a refund's (its status is asked elsewhere). */
export const mtnKindParameter = 'kind';

/**
 * The MoMo API as the service reaches it, with the product's tokens kept for the container. Both
 * sides of the adapter sit on one: the calls out, and the callback checks, which believe only
 * the status query.
 */
export interface MtnApi {
  /** The transaction as the status query answers it; undefined when MTN does not know it. */
  transaction(resource: MtnResource, referenceId: string): Promise<MtnTransaction | undefined>;
  /** POSTs a transaction under its reference id; a 409 is the same one sent before, so started. */
  start(resource: MtnResource, referenceId: string, callbackUrl: string, body: unknown): Promise<void>;
}

export function mtnApi(config: MtnConfig): MtnApi {
  const now = config.now ?? Date.now;
  const tokens = new Map<MtnProduct, Promise<{ token: string; expiresAt: number }>>();

  async function freshToken(product: MtnProduct) {
    const credentials = (await config.credentials())[product];
    const answer = await callProvider(
      'mtn',
      {
        method: 'POST',
        url: `${config.baseUrl}/${product}/token/`,
        headers: {
          authorization: `Basic ${Buffer.from(`${credentials.apiUser}:${credentials.apiKey}`).toString('base64')}`,
          'ocp-apim-subscription-key': credentials.subscriptionKey,
        },
        retryable: true,
      },
      config.policy,
    );
    const body = answer.body as { access_token?: string; expires_in?: number } | undefined;
    if (answer.status !== 200 || !body?.access_token) {
      logger.error('mtn refused the service’s API user', { product, status: answer.status });
      throw new ProviderUnavailable('MTN MoMo refused the service’s credentials');
    }
    // A minute's margin, so a token is never sent in its last seconds.
    return { token: body.access_token, expiresAt: now() + ((body.expires_in ?? 3600) - 60) * 1000 };
  }

  /** The product's token, from the container's cache while it lasts. */
  async function token(product: MtnProduct): Promise<string> {
    let cached = tokens.get(product);
    if (cached) {
      const held = await cached.catch(() => undefined);
      if (!held || held.expiresAt <= now()) cached = undefined;
    }
    if (!cached) {
      cached = freshToken(product);
      tokens.set(product, cached);
      cached.catch(() => tokens.delete(product));
    }
    return (await cached).token;
  }

  async function call(
    product: MtnProduct,
    method: 'GET' | 'POST',
    path: string,
    extraHeaders: Record<string, string> = {},
    body?: unknown,
  ) {
    const credentials = (await config.credentials())[product];
    const send = async () =>
      callProvider(
        'mtn',
        {
          method,
          url: `${config.baseUrl}/${product}${path}`,
          headers: {
            authorization: `Bearer ${await token(product)}`,
            'x-target-environment': config.targetEnvironment,
            'ocp-apim-subscription-key': credentials.subscriptionKey,
            ...extraHeaders,
          },
          body,
          // Reads, and POSTs under an X-Reference-Id, which MTN refuses to run twice (409).
          retryable: true,
          isFinalError: (_status, answer) =>
            refusedCodes.has((answer as { code?: string } | undefined)?.code ?? ''),
        },
        config.policy,
      );
    let answer = await send();
    if (answer.status === 401) {
      // Expired or revoked before its time: one new token, one more try.
      tokens.delete(product);
      answer = await send();
    }
    return answer;
  }

  async function transaction(
    resource: MtnResource,
    referenceId: string,
  ): Promise<MtnTransaction | undefined> {
    const { product, path } = resourcePaths[resource];
    const answer = await call(product, 'GET', `${path}/${encodeURIComponent(referenceId)}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) {
      throw new ProviderUnavailable(
        `MTN MoMo did not answer the status of ${referenceId} (${answer.status})`,
      );
    }
    return answer.body as MtnTransaction;
  }

  async function start(resource: MtnResource, referenceId: string, callbackUrl: string, body: unknown) {
    const { product, path } = resourcePaths[resource];
    const answer = await call(
      product,
      'POST',
      path,
      { 'x-reference-id': referenceId, 'x-callback-url': callbackUrl },
      body,
    );
    if (answer.status === 202 || answer.status === 409) return;
    const error = answer.body as { code?: string; message?: string } | undefined;
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 401 && answer.status !== 403) {
      throw new ProviderRefused(`MTN MoMo refused: ${error?.code ?? answer.status}`);
    }
    if (error?.code && refusedCodes.has(error.code))
      throw new ProviderRefused(`MTN MoMo refused: ${error.code}`);
    throw new ProviderUnavailable(`MTN MoMo could not take the request (${error?.code ?? answer.status})`);
  }

  return { transaction, start };
}

/** MTN MoMo called out: requests to pay, disbursements, and their status queries. */
export function mtnProvider(api: MtnApi): PaymentProvider {
  const withReference = (url: string, referenceId: string) =>
    `${url}${url.includes('?') ? '&' : '?'}${mtnReferenceParameter}=${encodeURIComponent(referenceId)}`;

  return {
    async startCollection(request) {
      if (request.flow === 'qr' || !request.payerPhone) {
        throw new ProviderRefused('MTN MoMo prompts the payer’s phone: it needs the payer’s number');
      }
      const referenceId = randomUUID();
      await api.start('collection', referenceId, withReference(request.callbackUrl, referenceId), {
        amount: wholeFrancs(request.amountCents, request.currency),
        currency: 'XOF',
        externalId: request.paymentRequestId,
        payer: { partyIdType: 'MSISDN', partyId: msisdn(request.payerPhone) },
        payerMessage: 'Paiement',
        payeeNote: request.paymentRequestId,
      });
      // MTN has no page of its own: a payer on the hosted page goes straight to its return page,
      // which waits while their phone shows the prompt.
      return {
        providerReference: referenceId,
        ...(request.flow === 'redirect' ? { checkoutUrl: request.returnUrl } : {}),
      };
    },

    async collectionStatus(providerReference) {
      const actual = await api.transaction('collection', providerReference);
      return actual ? mtnCollectionStatus(actual) : 'not_found';
    },

    async startPayout(request) {
      if (request.method !== 'mtn' || !request.beneficiaryNumber) {
        throw new ProviderRefused('MTN MoMo pays out to an MTN mobile number only');
      }
      // The transfer's own id (a UUID v4) is the reference: a retried start is the same transfer to
      // MTN, and the status query needs nothing but the transfer.
      await api.start(
        'disbursement',
        request.transferId,
        withReference(request.callbackUrl, request.transferId),
        {
          amount: wholeFrancs(request.amountCents, request.currency),
          currency: 'XOF',
          externalId: request.transferId,
          payee: { partyIdType: 'MSISDN', partyId: msisdn(request.beneficiaryNumber) },
          payerMessage: request.beneficiaryName,
          payeeNote: request.transferId,
        },
      );
      return { providerReference: request.transferId };
    },

    async payoutStatus(transferId) {
      const actual = await api.transaction('disbursement', transferId);
      return actual ? mtnPayoutStatus(actual) : 'not_found';
    },

    // MTN refunds any successful request to pay, whole or in part.
    refundsCollection: () => true,

    async refundCollection(request) {
      // The refund's own id (a UUID v4) is its reference, as for a transfer; the callback URL says
      // it is a refund, whose status is read from the refund resource.
      const callbackUrl = `${withReference(request.callbackUrl, request.refundId)}&${mtnKindParameter}=refund`;
      await api.start('refund', request.refundId, callbackUrl, {
        amount: wholeFrancs(request.amountCents, request.currency),
        currency: 'XOF',
        externalId: request.refundId,
        payerMessage: 'Remboursement',
        payeeNote: request.refundId,
        referenceIdToRefund: request.collectionReference,
      });
      return { providerReference: request.refundId };
    },

    async collectionRefundStatus(request) {
      const actual = await api.transaction('refund', request.refundId);
      return actual ? mtnPayoutStatus(actual) : 'not_found';
    },
  };
}

/** MTN's callbacks, as the callback routes check them: unsigned, so confirmed by the status query. */
export function mtnCallbacks(api: MtnApi): CallbackVerifier {
  /** The body's claim and the status query, compared: only a final status both agree on counts. */
  async function confirmed(resource: MtnResource, rawBody: string, referenceId: string | undefined) {
    if (!referenceId) return undefined;
    let claimed: Partial<MtnTransaction>;
    try {
      claimed = JSON.parse(rawBody) as Partial<MtnTransaction>;
    } catch {
      return undefined;
    }
    const actual = await api.transaction(resource, referenceId);
    if (!actual || actual.status === 'PENDING') return undefined;
    if (claimed.status !== actual.status || claimed.externalId !== actual.externalId) {
      logger.warn('mtn callback disagrees with the status query: ignored', {
        referenceId,
        claimed: claimed.status,
        actual: actual.status,
      });
      return undefined;
    }
    return actual;
  }

  return {
    async verifyCallback(_headers, rawBody, query): Promise<VerifiedCallback | undefined> {
      const referenceId = query?.[mtnReferenceParameter];
      const actual = await confirmed('collection', rawBody, referenceId);
      if (!actual || !referenceId) return undefined;
      return {
        callbackId: `mtn:${referenceId}:${actual.status}`,
        provider: 'mtn',
        providerReference: referenceId,
        paymentRequestId: actual.externalId,
        outcome: mtnCollectionStatus(actual) as CollectionOutcome,
        payerPhone: actual.payer?.partyId ? `+${actual.payer.partyId}` : undefined,
      };
    },

    async verifyPayoutCallback(_headers, rawBody, query): Promise<VerifiedPayoutCallback | undefined> {
      const referenceId = query?.[mtnReferenceParameter];
      const resource = query?.[mtnKindParameter] === 'refund' ? 'refund' : 'disbursement';
      const actual = await confirmed(resource, rawBody, referenceId);
      if (!actual || !referenceId) return undefined;
      return {
        callbackId: `mtn:${referenceId}:${actual.status}`,
        method: 'mtn',
        providerReference: referenceId,
        transferId: actual.externalId,
        outcome: mtnPayoutStatus(actual) as VerifiedPayoutCallback['outcome'],
      };
    },
  };
}

let environmentApi: MtnApi | undefined;

/**
 * The stage's MTN API, one per container for both sides of the adapter (so they share its
 * tokens): base URL and target environment from MTN_API_URL and MTN_TARGET_ENVIRONMENT,
 * credentials from the MTN_PROVIDER secret (JSON `{"collection":
 * {"subscriptionKey","apiUser","apiKey"}, "disbursement": {…}}`), read once per container.
 */
export function mtnApiFromEnvironment(): MtnApi {
  environmentApi ??= mtnApi({
    baseUrl: process.env.MTN_API_URL ?? 'https://proxy.momoapi.mtn.com',
    targetEnvironment: process.env.MTN_TARGET_ENVIRONMENT ?? 'mtnivorycoast',
    credentials: () => providerCredentials<MtnCredentials>('mtn'),
    policy: defaultCallPolicy,
  });
  return environmentApi;
}
