import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { secretValue } from '#shared/aws/secrets.ts';
import { sendToQueue } from '#shared/aws/sqs.ts';
import { isProviderCode, type PayoutMethod, type ProviderCode } from '#shared/domain/payment-methods.ts';
import { type UemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import { verifiedCallbackBody } from '#shared/providers/callback-body.ts';
import type {
  CallbackVerifier,
  CollectionOutcome,
  CollectionRequest,
  CollectionStarted,
  PaymentProvider,
  PayoutOutcome,
  PayoutRequest,
  PayoutStarted,
  VerifiedCallback,
  VerifiedPayoutCallback,
} from '#shared/providers/port.ts';

/**
 * The sandbox provider: behaves like a real mobile-money provider for all five codes, on sandbox
 * stages and the local host. It keeps its own collections, serves its own approval page, and
 * calls the service back over HTTP with a signed body, later, as a real provider does.
 *
 * Test phone numbers choose what happens, the same six in every country of the zone (each
 * country's base below, then 01 to 06; Côte d'Ivoire's shown):
 * +2250700000001 success · +2250700000002 declined by the payer · +2250700000003 insufficient
 * funds · +2250700000004 no callback ever (stays pending) · +2250700000005 refused at once ·
 * +2250700000006 success with the callback delivered twice · any other valid number: success.
 *
 * Payouts follow the beneficiary's number the same way: …01 paid, …02 declined by the
 * beneficiary's account, …03 failed for a limit, …04 no callback (it stays pending until a test
 * helper settles it; the status query then finds it), …05 refused at once, …06 paid with the
 * callback delivered twice. A bank payout is paid. A refund to the payer's number follows that
 * number the same way, whether the provider would refund the collection or pay it out.
 *
 * Keys: pk = SANDBOX#<providerReference>, sk = COLLECTION; pk = SANDBOX#payout:<transferId>,
 * sk = PAYOUT.
 */
export type SandboxBehaviour = CollectionOutcome | 'no_callback' | 'refused' | 'duplicate_callback';

/** The behaviours by the test numbers' last two digits, 01 to 06. */
const behaviourOrder: readonly SandboxBehaviour[] = [
  'success',
  'declined',
  'insufficient_funds',
  'no_callback',
  'refused',
  'duplicate_callback',
];

/** Each country's test numbers but their last two digits: valid mobile numbers there, with 01 to 06. */
export const sandboxNumberBases: Record<UemoaCountry, string> = {
  BJ: '+22901900000',
  BF: '+226700000',
  CI: '+22507000000',
  GW: '+2459550000',
  ML: '+223700000',
  NE: '+227900000',
  SN: '+2217700000',
  TG: '+228900000',
};

/** The six test numbers of a country, with what each does. */
export const sandboxPhonesOf = (country: UemoaCountry): Record<string, SandboxBehaviour> =>
  Object.fromEntries(
    behaviourOrder.map((behaviour, index) => [`${sandboxNumberBases[country]}0${index + 1}`, behaviour]),
  );

export const sandboxPhones: Record<string, SandboxBehaviour> = Object.assign(
  {},
  ...uemoaCountries.map(sandboxPhonesOf),
);

export const sandboxBehaviour = (phone: string | undefined): SandboxBehaviour =>
  (phone && sandboxPhones[phone]) || 'success';

/** How long after the prompt the simulated payer answers on their phone. */
const directAnswerDelaySeconds = 2;

export const signatureHeader = 'x-sandbox-signature';

export interface SandboxCollection {
  providerReference: string;
  paymentRequestId: string;
  provider: ProviderCode;
  amountCents: number;
  currency: string;
  flow: CollectionRequest['flow'];
  payerPhone?: string | undefined;
  callbackUrl: string;
  returnUrl: string;
  state: 'open' | 'approved' | 'declined';
  createdAt: string;
}

export interface SandboxPayout {
  transferId: string;
  providerReference: string;
  method: PayoutMethod;
  amountCents: number;
  currency: string;
  beneficiaryNumber?: string | undefined;
  callbackUrl: string;
  state: 'pending' | PayoutOutcome;
  createdAt: string;
}

/** A payout callback to send; the sandbox callbacks queue carries these beside collection ones. */
export interface PendingPayoutCallback {
  kind: 'payout';
  transferId: string;
  outcome: PayoutOutcome;
  deliveries: number;
}

const payoutKey = (transferId: string) => ({ pk: `SANDBOX#payout:${transferId}`, sk: 'PAYOUT' });

export async function getSandboxPayout(transferId: string): Promise<SandboxPayout | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: payoutKey(transferId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, ...payout } = Item;
  return payout as SandboxPayout;
}

function payoutCallbackFor(
  behaviour: SandboxBehaviour,
  transferId: string,
): PendingPayoutCallback | undefined {
  switch (behaviour) {
    case 'no_callback':
    case 'refused':
      return undefined;
    case 'duplicate_callback':
      return { kind: 'payout', transferId, outcome: 'success', deliveries: 2 };
    case 'insufficient_funds':
      return { kind: 'payout', transferId, outcome: 'limit_exceeded', deliveries: 1 };
    default:
      return { kind: 'payout', transferId, outcome: behaviour, deliveries: 1 };
  }
}

/** The body of a callback, when its signature is the sandbox's; undefined otherwise. */
async function signedBody<T>(headers: Record<string, string | undefined>, rawBody: string) {
  const presented = headers[signatureHeader];
  if (!presented || !/^[0-9a-f]{64}$/.test(presented)) return undefined;
  const expected = Buffer.from(await signSandboxBody(rawBody), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(presented, 'hex'))) return undefined;
  try {
    const body: unknown = JSON.parse(rawBody);
    return typeof body === 'object' && body !== null ? (body as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}

/** A callback to send, now or after a delay (the sandbox callbacks queue carries these). */
export interface PendingCallback {
  providerReference: string;
  outcome: CollectionOutcome;
  payerPhone?: string | undefined;
  /** How many times to deliver it: twice for the duplicate-callback number. */
  deliveries: number;
}

const collectionKey = (providerReference: string) => ({
  pk: `SANDBOX#${providerReference}`,
  sk: 'COLLECTION',
});

/** The key the sandbox signs callbacks with and the service checks them with. */
const secret = () => secretValue('SANDBOX_PROVIDER_SECRET');

export const signSandboxBody = async (body: string, key?: string) =>
  createHmac('sha256', key ?? (await secret()))
    .update(body)
    .digest('hex');

/** What the sandbox hands out as a provider reference; anything else is not one of its collections. */
const providerReferencePattern = /^sbx_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function getSandboxCollection(
  providerReference: string,
): Promise<SandboxCollection | undefined> {
  if (!providerReferencePattern.test(providerReference)) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: collectionKey(providerReference), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, ...collection } = Item;
  return collection as SandboxCollection;
}

function callbackFor(
  behaviour: SandboxBehaviour,
  providerReference: string,
  payerPhone: string | undefined,
): PendingCallback | undefined {
  switch (behaviour) {
    case 'no_callback':
      return undefined;
    case 'refused':
      // Refused at once where the provider is asked with the number; typed on its own page (or
      // after a QR) the account is refused there, which reaches the service as a declined payment.
      return { providerReference, outcome: 'declined', payerPhone, deliveries: 1 };
    case 'duplicate_callback':
      return { providerReference, outcome: 'success', payerPhone, deliveries: 2 };
    default:
      return { providerReference, outcome: behaviour, payerPhone, deliveries: 1 };
  }
}

/** A payout (or a refund kept as one) as the beneficiary's number decides. */
async function sandboxPayout(request: PayoutRequest): Promise<PayoutStarted> {
  const behaviour = request.method === 'bank' ? 'success' : sandboxBehaviour(request.beneficiaryNumber);
  if (behaviour === 'refused') {
    throw new ProviderRefused(
      `The ${request.method} account of ${request.beneficiaryNumber} cannot receive money`,
    );
  }
  const callback = payoutCallbackFor(behaviour, request.transferId);
  const payout: SandboxPayout = {
    transferId: request.transferId,
    providerReference: `sbxp_${randomUUID()}`,
    method: request.method,
    amountCents: request.amountCents,
    currency: request.currency,
    beneficiaryNumber: request.beneficiaryNumber,
    callbackUrl: request.callbackUrl,
    // The provider settles at once; the callback follows as the beneficiary's side confirms.
    state: callback ? callback.outcome : 'pending',
    createdAt: new Date().toISOString(),
  };
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...payoutKey(request.transferId), entity: 'sandbox_payout', ...payout },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    // Asked twice for one transfer (a retried start): the first payout is the one.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const existing = await getSandboxPayout(request.transferId);
    return { providerReference: (existing as SandboxPayout).providerReference };
  }
  if (callback) await sendToQueue('sandboxCallbacks', callback, { delaySeconds: directAnswerDelaySeconds });
  return { providerReference: payout.providerReference };
}

export const sandboxProvider: PaymentProvider = {
  async startCollection(request) {
    // Asked with the payer's number (a direct request, the hosted page's form), the provider
    // refuses an account it cannot charge at once, before any page of its own. Only a direct
    // request is answered without the payer's page.
    const refused = request.flow !== 'qr' && sandboxBehaviour(request.payerPhone) === 'refused';
    const behaviour = request.flow === 'direct' ? sandboxBehaviour(request.payerPhone) : undefined;
    if (refused)
      throw new ProviderRefused(`The ${request.provider} account of ${request.payerPhone} cannot pay`);
    const providerReference = `sbx_${randomUUID()}`;
    const collection: SandboxCollection = {
      providerReference,
      paymentRequestId: request.paymentRequestId,
      provider: request.provider,
      amountCents: request.amountCents,
      currency: request.currency,
      flow: request.flow,
      payerPhone: request.payerPhone,
      callbackUrl: request.callbackUrl,
      returnUrl: request.returnUrl,
      state: 'open',
      createdAt: new Date().toISOString(),
    };
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...collectionKey(providerReference), entity: 'sandbox_collection', ...collection },
      }),
    );
    const started: CollectionStarted = { providerReference };
    const checkoutUrl = `${request.baseUrl}/sandbox/provider/checkout/${providerReference}`;
    if (request.flow === 'redirect') started.checkoutUrl = checkoutUrl;
    if (request.flow === 'qr') started.qrPayload = checkoutUrl;
    if (behaviour) {
      const callback = callbackFor(behaviour, providerReference, request.payerPhone);
      if (callback)
        await sendToQueue('sandboxCallbacks', callback, { delaySeconds: directAnswerDelaySeconds });
    }
    return started;
  },

  startPayout: sandboxPayout,

  async payoutStatus(transferId) {
    const payout = await getSandboxPayout(transferId);
    return payout ? payout.state : 'not_found';
  },

  // As the live providers: MTN refunds any collection, Wave a whole one; the rest are payouts.
  refundsCollection: (provider, whole) => provider === 'mtn' || (provider === 'wave' && whole),

  // The payer's number decides, as for a payout to it; the refund is kept as one, under its id.
  refundCollection: (request) =>
    sandboxPayout({
      transferId: request.refundId,
      method: request.provider,
      amountCents: request.amountCents,
      currency: request.currency,
      beneficiaryName: request.payerNumber,
      beneficiaryNumber: request.payerNumber,
      callbackUrl: request.callbackUrl,
    }),

  async collectionRefundStatus(request) {
    const payout = await getSandboxPayout(request.refundId);
    return payout ? payout.state : 'not_found';
  },
};

/**
 * The sandbox's callbacks, as the callback routes check them: signed with the sandbox's key
 * (`signSandboxBody`, which its deliveries below sign with), then held to the shape of a callback.
 */
export const sandboxCallbacks: CallbackVerifier = {
  async verifyCallback(headers, rawBody) {
    const body = await signedBody<VerifiedCallback>(headers, rawBody);
    if (!body) return undefined;
    const parsed = verifiedCallbackBody.safeParse(body);
    if (!parsed.success) {
      logger.warn('sandbox callback refused: signed, but its body is not a callback', {
        issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.code}`),
      });
      return undefined;
    }
    return parsed.data as VerifiedCallback;
  },

  async verifyPayoutCallback(headers, rawBody) {
    const body = await signedBody<VerifiedPayoutCallback>(headers, rawBody);
    if (
      !body ||
      typeof body.callbackId !== 'string' ||
      typeof body.providerReference !== 'string' ||
      typeof body.transferId !== 'string' ||
      (body.method !== 'bank' && !(typeof body.method === 'string' && isProviderCode(body.method))) ||
      (body.outcome !== 'success' && body.outcome !== 'declined' && body.outcome !== 'limit_exceeded')
    ) {
      return undefined;
    }
    return body as VerifiedPayoutCallback;
  },
};

/**
 * The payer acts on the provider's side (its approval page, their phone, or a test helper that
 * stands in for them): the collection is closed once, and the callback that follows is sent to
 * the service. Answers undefined when the collection is unknown or was already acted on.
 */
export async function actOnSandboxCollection(
  providerReference: string,
  action: 'approve' | 'decline',
  payerPhone?: string,
): Promise<SandboxCollection | undefined> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: collectionKey(providerReference),
        UpdateExpression: 'SET #state = :state, payerPhone = :phone',
        ConditionExpression: '#state = :open',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':state': action === 'approve' ? 'approved' : 'declined',
          ':open': 'open',
          ':phone': payerPhone ?? null,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const collection = Attributes as SandboxCollection;
    const callback =
      action === 'decline'
        ? { providerReference, outcome: 'declined' as const, payerPhone, deliveries: 1 }
        : callbackFor(sandboxBehaviour(payerPhone), providerReference, payerPhone);
    if (callback) {
      try {
        await deliverSandboxCallback(callback);
      } catch (error) {
        // The service did not take it now: the queue retries, as a real provider would.
        logger.warn('sandbox callback not delivered, queued for retry', {
          providerReference,
          error: error as Error,
        });
        await sendToQueue('sandboxCallbacks', callback);
      }
    }
    return collection;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Sends a callback to the service, signed, as many times as it asks; throws if the service does not take it. */
export async function deliverSandboxCallback(callback: PendingCallback): Promise<void> {
  const collection = await getSandboxCollection(callback.providerReference);
  if (!collection) {
    logger.warn('sandbox callback for an unknown collection', {
      providerReference: callback.providerReference,
    });
    return;
  }
  for (let delivery = 0; delivery < callback.deliveries; delivery++) {
    const body = JSON.stringify({
      callbackId: randomUUID(),
      provider: collection.provider,
      providerReference: collection.providerReference,
      paymentRequestId: collection.paymentRequestId,
      outcome: callback.outcome,
      payerPhone: callback.payerPhone ?? collection.payerPhone,
      payerName: 'Client Sandbox',
    });
    const response = await fetch(collection.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [signatureHeader]: await signSandboxBody(body) },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`the service answered ${response.status} to a sandbox callback`);
  }
}

/**
 * The provider settles a payout that is still pending (a test helper standing in for the
 * beneficiary's side): once, then its callback goes to the service, unless `withCallback` is false
 * (a callback lost on the way, which only the status query then finds). Undefined when the payout
 * is unknown or already settled.
 */
export async function settleSandboxPayout(
  transferId: string,
  outcome: PayoutOutcome,
  withCallback = true,
): Promise<SandboxPayout | undefined> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: payoutKey(transferId),
        UpdateExpression: 'SET #state = :state',
        ConditionExpression: '#state = :pending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': outcome, ':pending': 'pending' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (withCallback) {
      const callback: PendingPayoutCallback = { kind: 'payout', transferId, outcome, deliveries: 1 };
      try {
        await deliverSandboxPayoutCallback(callback);
      } catch (error) {
        logger.warn('sandbox payout callback not delivered, queued for retry', {
          transferId,
          error: error as Error,
        });
        await sendToQueue('sandboxCallbacks', callback);
      }
    }
    return Attributes as SandboxPayout;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Sends a payout callback to the service, signed, as many times as it asks. */
export async function deliverSandboxPayoutCallback(callback: PendingPayoutCallback): Promise<void> {
  const payout = await getSandboxPayout(callback.transferId);
  if (!payout) {
    logger.warn('sandbox payout callback for an unknown payout', { transferId: callback.transferId });
    return;
  }
  for (let delivery = 0; delivery < callback.deliveries; delivery++) {
    const body = JSON.stringify({
      callbackId: randomUUID(),
      method: payout.method,
      providerReference: payout.providerReference,
      transferId: payout.transferId,
      outcome: callback.outcome,
    });
    const response = await fetch(payout.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [signatureHeader]: await signSandboxBody(body) },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`the service answered ${response.status} to a sandbox payout callback`);
  }
}
