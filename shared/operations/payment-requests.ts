import { randomUUID } from 'node:crypto';
import type { CreatePaymentRequestBody } from '#shared/api/payment-requests.ts';
import { getBusiness } from '#shared/data/business.ts';
import { collectedLately, collectedThisMonth, expectCollection } from '#shared/data/collection-ceiling.ts';
import {
  createPaymentRequest,
  failAtOnce,
  getPaymentRequest,
  type PaymentRequest,
  recordCollectionStarted,
  recordFailedAttempt,
} from '#shared/data/payment-request.ts';
import type { Store } from '#shared/data/store.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { type Caller, callerSeesStore } from '#shared/domain/caller.ts';
import { collectionCeiling } from '#shared/domain/ceilings.ts';
import { firstCollectionPollAfterMs } from '#shared/domain/collection-polling.ts';
import type { EscrowTerms } from '#shared/domain/escrows.ts';
import type { Cents } from '#shared/domain/money.ts';
import { defaultLifetimeMs, expiresAtOf, minLifetimeSeconds } from '#shared/domain/payment-lifetime.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import {
  CollectionCeilingExceeded,
  PaymentRequestExpired,
  PaymentRequestNotFound,
} from '#shared/errors/payment-requests.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { Conflict, ValidationFailed } from '#shared/errors/request.ts';
import { count } from '#shared/metrics.ts';
import { assertMayHoldInEscrow, checkedTerms, pendingEscrow } from '#shared/operations/escrow-terms.ts';
import { asSeenAt } from '#shared/operations/payment-request-view.ts';
import { storeForCollection } from '#shared/operations/stores.ts';
import type { CollectionFlow } from '#shared/providers/port.ts';
import { assertOperatorAvailable, providerFor } from '#shared/providers/routing.ts';

/**
 * Creates a payment request. Redirect requests wait on the hosted page for the payer to choose
 * how to pay; direct requests prompt the payer's phone at once; soundbox requests get their QR.
 * A provider that refuses at once fails the request (400 third_party_payment_provider_error) and
 * frees its reference.
 */
export async function createPaymentRequestFor(
  caller: Caller,
  body: CreatePaymentRequestBody,
  baseUrl: string,
): Promise<PaymentRequest> {
  if (body.escrow) assertMayHoldInEscrow(caller);
  const expiry =
    body.expiresAt === undefined ? undefined : expiresAtOf(body.expiresAt, new Date(), minLifetimeSeconds());
  if (expiry && 'refused' in expiry) {
    throw new ValidationFailed([{ field: 'expiresAt', rule: 'between', message: expiry.refused }]);
  }
  // The store and the ceiling are read at once; the store's refusal still comes first.
  const room = roomUnderCeiling(caller.businessId, caller.verificationLevel, body.amountCents);
  room.catch(() => undefined);
  const store = await storeForCollection(caller, body.storeId, body.currency);
  const { type, data } = body.paymentDetails;
  // The method named is down for now: refused before anything is written, the caller told when to retry.
  await assertOperatorAvailable(
    data.paymentMethod,
    { phone: data.payerPhone, country: store.country },
    'collection',
  );
  const request = await openPaymentRequest(
    {
      businessId: caller.businessId,
      verificationLevel: caller.verificationLevel,
      store,
      reference: body.reference,
      description: body.description,
      type,
      paymentMethod: data.paymentMethod,
      amountCents: body.amountCents,
      successUrl: data.successUrl,
      errorUrl: data.errorUrl,
      deviceId: type === 'soundbox' ? data.deviceId : undefined,
      forceProviderDirect: data.forceProviderDirect === true,
      payerPhone: data.payerPhone,
      escrowTerms: body.escrow ? checkedTerms(body.escrow) : undefined,
      expiresAt: expiry?.expiresAt,
      room,
    },
    baseUrl,
  );

  count('PaymentsCreated', { provider: data.paymentMethod, type });
  const flow: CollectionFlow | undefined =
    type === 'soundbox' ? 'qr' : request.forceProviderDirect ? 'direct' : undefined;
  if (!flow) return request;
  return startCollection(request, flow, data.paymentMethod, request.payerPhone, baseUrl);
}

export type NewPaymentRequest = Pick<
  PaymentRequest,
  | 'businessId'
  | 'reference'
  | 'description'
  | 'type'
  | 'paymentMethod'
  | 'amountCents'
  | 'successUrl'
  | 'errorUrl'
  | 'deviceId'
  | 'forceProviderDirect'
  | 'payerPhone'
  | 'paymentLinkId'
  | 'paymentLinkSingleUse'
> & {
  store: Store;
  id?: string;
  /** The business's verification level, when the caller already knows it (saves a read). */
  verificationLevel?: number;
  /** Hold the payment in escrow on these terms (already checked). */
  escrowTerms?: EscrowTerms | undefined;
  /** Until when it may be paid (already checked); 30 minutes from now by default. */
  expiresAt?: string | undefined;
  /** `roomUnderCeiling`, when the caller started reading it already. */
  room?: Promise<Cents | null> | undefined;
};

/**
 * What the business may still collect this month (null: no ceiling), its level and its month's
 * count read at once. Advisory at creation: the completion counts atomically. A count this
 * container read within the minute (plus the requests it has let through since) decides only
 * while `amount` leaves a tenth of the ceiling free; nearer, the count is read again.
 */
async function roomUnderCeiling(
  businessId: string,
  knownLevel: number | undefined,
  amount: Cents,
): Promise<Cents | null> {
  if (knownLevel !== undefined && collectionCeiling(knownLevel) === null) return null;
  const [level, lately] = await Promise.all([
    knownLevel ?? getBusiness(businessId).then((business) => business?.verificationLevel),
    collectedLately(businessId),
  ]);
  if (level === undefined) throw new BusinessNotFound();
  const ceiling = collectionCeiling(level);
  if (ceiling === null) return null;
  const near = lately.collected + amount > ceiling * 0.9;
  const collected = near && !lately.fresh ? await collectedThisMonth(businessId) : lately.collected;
  return ceiling - collected;
}

/**
 * Checks the business's collection ceiling, then records a pending request (with `alongside`,
 * writes that must hold together with it). Shared by the API and payment links.
 */
export async function openPaymentRequest(
  input: NewPaymentRequest,
  baseUrl: string,
  alongside: GuardedWrite[] = [],
): Promise<PaymentRequest> {
  // The caller's key already carries the level (cached up to a minute): this check at creation is
  // advisory, the completion re-reads it and counts atomically, so no read is spent here for it.
  const room = await (input.room ??
    roomUnderCeiling(input.businessId, input.verificationLevel, input.amountCents));
  if (room !== null && input.amountCents > room) throw new CollectionCeilingExceeded();
  if (room !== null) expectCollection(input.businessId, input.amountCents);
  const {
    store,
    id = randomUUID(),
    verificationLevel: _level,
    room: _room,
    escrowTerms,
    expiresAt,
    ...fields
  } = input;
  const createdAt = new Date();
  const now = createdAt.toISOString();
  const escrow = escrowTerms
    ? pendingEscrow({
        businessId: input.businessId,
        storeId: store.id,
        currency: store.currency,
        amount: input.amountCents,
        paymentRequestId: id,
        paymentLinkId: input.paymentLinkId,
        terms: escrowTerms,
        baseUrl,
      })
    : undefined;
  const request: PaymentRequest = {
    ...fields,
    id,
    storeId: store.id,
    storeName: store.name,
    ...(store.country ? { storeCountry: store.country } : {}),
    currency: store.currency,
    redirectUrl: `${baseUrl}/payment/${id}`,
    status: 'pending',
    errorReason: null,
    transaction: null,
    ...(escrow ? { escrow: { id: escrow.escrow.id, holdUntil: escrow.escrow.holdUntil } } : {}),
    expiresAt: expiresAt ?? new Date(createdAt.getTime() + defaultLifetimeMs).toISOString(),
    createdAt: now,
    updatedAt: now,
  };
  await createPaymentRequest(request, escrow ? [...alongside, escrow.write] : alongside);
  return request;
}

/**
 * Starts (or restarts, from the hosted page) the provider's flow for a pending request, before its
 * `expiresAt`: a request past it is refused with PaymentRequestExpired, before the provider is
 * asked, and again by the recording's condition should the instant pass during the call (the
 * provider's collection is then never handed to the payer; should they pay it all the same, it is
 * refunded as an orphan). A provider that refuses at once ends the request (its reference freed),
 * unless `payerMayRetry`, for a payer on the hosted page, who stays on the form.
 */
export async function startCollection(
  request: PaymentRequest,
  flow: CollectionFlow,
  method: ProviderCode,
  payerPhone: string | undefined,
  baseUrl: string,
  { payerMayRetry = false }: { payerMayRetry?: boolean } = {},
): Promise<PaymentRequest> {
  if (Date.now() >= Date.parse(request.expiresAt)) throw new PaymentRequestExpired();
  const party = { phone: payerPhone, country: request.storeCountry };
  await assertOperatorAvailable(method, party, 'collection');
  const provider = providerFor(method, party);
  const collectionId = randomUUID();
  // A provider that takes our id has it recorded first: its answer lost, the poll reads it back.
  const recordedFirst = provider.namesCollectionsByOurId === true;
  const record = async (providerReference: string) => {
    const at = new Date();
    const recorded = await recordCollectionStarted(
      request,
      {
        providerReference,
        paymentMethod: method,
        payerPhone,
        // A provider whose status can be asked is polled until it answers, should its callback not come.
        pollAt: provider.collectionStatus ? new Date(at.getTime() + firstCollectionPollAfterMs) : undefined,
      },
      at,
    );
    if (!recorded) {
      // The instant passed meanwhile, or the request completed (a callback of an earlier
      // collection): this collection must not be used.
      if (at.getTime() >= Date.parse(request.expiresAt)) throw new PaymentRequestExpired();
      throw new Conflict('The payment request is no longer pending');
    }
  };
  try {
    if (recordedFirst) await record(collectionId);
    const started = await provider.startCollection({
      paymentRequestId: request.id,
      collectionId,
      provider: method,
      amountCents: request.amountCents,
      currency: request.currency,
      flow,
      payerPhone,
      callbackUrl: `${baseUrl}/provider_callbacks/${method}`,
      returnUrl: `${baseUrl}/payment/${request.id}/return`,
      baseUrl,
    });
    if (!recordedFirst) await record(started.providerReference);
    return {
      ...request,
      ...started,
      attemptError: undefined,
      collectionMethod: method,
      payerPhone: payerPhone ?? request.payerPhone,
    };
  } catch (error) {
    if (error instanceof ProviderRefused && !payerMayRetry)
      await failAtOnce(request, 'third_party_payment_provider_error');
    else if (error instanceof ProviderRefused && recordedFirst)
      // Refused at once: nothing at the provider to ask about, and not a payment under way.
      await recordFailedAttempt(request, {
        providerReference: collectionId,
        reason: 'third_party_payment_provider_error',
        payerPhone,
      });
    throw error;
  }
}

/** The caller's request as every answer shows it: over by time, it is `expired` (asSeenAt). */
export async function paymentRequestOf(caller: Caller, id: string): Promise<PaymentRequest> {
  const request = await getPaymentRequest(caller.businessId, id);
  if (!request || !callerSeesStore(caller, request.storeId)) throw new PaymentRequestNotFound();
  return asSeenAt(request);
}
