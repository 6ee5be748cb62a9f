import { randomUUID } from 'node:crypto';
import { findEscrow } from '#shared/data/escrow.ts';
import { getPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import {
  getRefund,
  listRefunds,
  listRefundsOfPayment,
  type Refund,
  type RefundPage,
  refundableClaimWrite,
  refundableOf,
  refundCreationWrites,
} from '#shared/data/refund.ts';
import { getStore } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { transactionRecordWrites } from '#shared/data/transaction-record.ts';
import { reserveWrite } from '#shared/data/wallet.ts';
import { type Caller, callerSeesStore } from '#shared/domain/caller.ts';
import { refundFeeScheduleFromEnvironment, splitFee } from '#shared/domain/fees.ts';
import { accounts, type RefundRoute } from '#shared/domain/ledger.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { PaymentRequestNotFound } from '#shared/errors/payment-requests.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import {
  PaymentRequestNotRefundable,
  RefundAboveRemaining,
  RefundableTaken,
  RefundNotFound,
} from '#shared/errors/refunds.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { logger } from '#shared/logger.ts';
import { count } from '#shared/metrics.ts';
import { assertOperatorAvailable, providerFor } from '#shared/providers/routing.ts';
import { refundRecord, startRefund } from '#shared/settlement/refund-payouts.ts';

const refundFees = refundFeeScheduleFromEnvironment();

/** The smallest refund, as the smallest payment. */
export const minRefundCents = 100;

export interface RefundInput {
  paymentRequestId: string;
  amountCents?: number | undefined;
  reference: string;
  reason?: string | undefined;
}

/** The paid request of the caller's business a refund is asked for, or why it cannot be refunded. */
async function refundablePayment(caller: Caller, id: string): Promise<PaymentRequest> {
  const request = await getPaymentRequest(caller.businessId, id, true);
  if (!request || !callerSeesStore(caller, request.storeId)) throw new PaymentRequestNotFound();
  if (request.status !== 'success' || !request.transaction || !request.providerReference)
    throw new PaymentRequestNotRefundable(`it is ${request.status}, not paid`);
  if (request.escrow) {
    // Held money is the escrow's: it goes back whole through the escrow. Once released to the
    // store, the payment is the store's like any other.
    const escrow = await findEscrow(request.escrow.id, true);
    if (escrow?.status !== 'released') {
      throw new PaymentRequestNotRefundable(
        `it is in escrow ${request.escrow.id} (${escrow?.status ?? 'unknown'}): refund it through POST /partner_api/escrows/${request.escrow.id}/refund`,
      );
    }
  }
  return request;
}

/** What the refund takes: what was asked, or all that remains; never more than remains. */
function amountAsked(remaining: number, asked: number | undefined): number {
  if (remaining <= 0) throw new PaymentRequestNotRefundable('nothing of it remains refundable');
  const amount = asked ?? remaining;
  if (amount > remaining) throw new RefundAboveRemaining(remaining);
  if (amount < minRefundCents) {
    throw new ValidationFailed([
      {
        field: 'amountCents',
        rule: 'min',
        message: `The amountCents field must be at least ${minRefundCents}; ${remaining} remain refundable.`,
      },
    ]);
  }
  return amount;
}

/**
 * The provider's own refund of the collection where it has one for this amount; otherwise a
 * payout to the payer, whose number must then be known (a QR payment's may not be).
 */
function routeOf(request: PaymentRequest, provider: ProviderCode, amount: number): RefundRoute {
  if (
    providerFor(provider, { phone: request.payerPhone, country: request.storeCountry }).refundsCollection?.(
      provider,
      amount === request.amountCents,
    )
  )
    return 'refund';
  if (!request.payerPhone) {
    throw new PaymentRequestNotRefundable(
      `the payer’s number is not known, and ${provider} gives back only whole payments itself: refund all of it`,
    );
  }
  return 'payout';
}

/**
 * The fee a refund of `amount` of this payment is charged: the refund schedule of the provider
 * that collected it. The dashboard shows it before the refund is confirmed.
 */
export const refundFeeOf = (
  request: Pick<PaymentRequest, 'collectionMethod' | 'paymentMethod'>,
  amount: number,
): number => splitFee(amount, refundFees[request.collectionMethod ?? request.paymentMethod]).fee;

function newRefund(request: PaymentRequest, input: RefundInput, amount: number, baseUrl: string): Refund {
  const id = randomUUID();
  const now = new Date().toISOString();
  const provider = request.collectionMethod ?? request.paymentMethod;
  const fee = refundFeeOf(request, amount);
  const transaction = request.transaction as NonNullable<PaymentRequest['transaction']>;
  return {
    id,
    businessId: request.businessId,
    storeId: request.storeId,
    paymentRequestId: request.id,
    paymentReference: request.reference,
    amountCents: amount,
    feeCents: fee,
    currency: request.currency,
    status: 'pending',
    errorReason: null,
    reference: input.reference,
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    paymentMethod: provider,
    counterpartIdentifier: request.payerPhone ?? transaction.counterpartIdentifier,
    counterpartLabel: transaction.counterpartLabel,
    route: routeOf(request, provider, amount),
    collectionReference: request.providerReference as string,
    callbackUrl: `${baseUrl}/provider_callbacks/${provider}/payouts`,
    reservation: {
      account: accounts.wallet(request.businessId, request.storeId, 'operating'),
      amount: amount + fee,
      state: 'open',
    },
    transactionId: randomUUID(),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Refunds a paid payment of the caller's business, whole (by default, what remains) or in part.
 * In one transaction, or not at all: the reference's claim (409 when reused), the amount taken
 * from what remains refundable of the payment under the condition that it does (so refunds sent at
 * once never sum past the payment: 422 on `amountCents`), amount + fee reserved on the store's
 * operating wallet under the condition that its available balance covers them (422
 * insufficient_balance), the refund and its pending list line. Then the provider that collected
 * the payment is asked to pay it back; its answer settles the refund (shared/operations/
 * complete-refund.ts). A provider unreachable now leaves the refund pending for the sweep.
 */
export async function createRefundFor(caller: Caller, input: RefundInput, baseUrl: string): Promise<Refund> {
  const request = await refundablePayment(caller, input.paymentRequestId);
  const amount = amountAsked(await refundableOf(request), input.amountCents);
  const refund = newRefund(request, input, amount, baseUrl);
  await assertOperatorAvailable(
    refund.paymentMethod,
    { phone: refund.counterpartIdentifier, country: request.storeCountry },
    refund.route === 'refund' ? 'refund' : 'payout',
  );
  const writes: GuardedWrite[] = [
    ...refundCreationWrites(refund),
    refundableClaimWrite(request, amount, () => new RefundableTaken()),
    reserveWrite(
      { businessId: refund.businessId, storeId: refund.storeId, kind: 'operating' },
      refund.reservation.amount,
      () => new InsufficientBalance(),
    ),
    ...transactionRecordWrites(refundRecord(refund)),
  ];
  try {
    await transactWrite(writes);
  } catch (error) {
    if (!(error instanceof RefundableTaken)) throw error;
    // Another refund took part of the payment since it was read: say what remains now.
    const remaining = await refundableOf(request);
    if (remaining <= 0) throw new PaymentRequestNotRefundable('nothing of it remains refundable');
    throw new RefundAboveRemaining(remaining);
  }
  count('RefundsCreated', { provider: refund.paymentMethod, route: refund.route });
  try {
    return await startRefund(refund);
  } catch (error) {
    if (error instanceof ProviderRefused) throw error;
    // Recorded and reserved; the provider was not reached: the sweep asks it again.
    logger.warn('refund not asked of its provider yet; the sweep will', {
      refundId: refund.id,
      error: error as Error,
    });
    return refund;
  }
}

export async function refundOf(caller: Caller, id: string): Promise<Refund> {
  const refund = await getRefund(caller.businessId, id);
  if (!refund || !callerSeesStore(caller, refund.storeId)) throw new RefundNotFound();
  return refund;
}

/**
 * A page of the caller's refunds, newest first: of one payment, of one store, or of the business
 * (a key scoped to a store lists that store whatever it asks). Another business's payment or store
 * is not found.
 */
export async function refundsOf(
  caller: Caller,
  query: {
    paymentRequestId?: string | undefined;
    storeId?: string | undefined;
    page: number;
    limit: number;
  },
): Promise<RefundPage> {
  const storeId = query.storeId ?? caller.storeId;
  if (storeId !== undefined) {
    if (!callerSeesStore(caller, storeId) || !(await getStore(caller.businessId, storeId)))
      throw new StoreNotFound();
  }
  if (query.paymentRequestId) {
    const request = await getPaymentRequest(caller.businessId, query.paymentRequestId);
    if (!request || !callerSeesStore(caller, request.storeId)) throw new PaymentRequestNotFound();
    if (storeId !== undefined && request.storeId !== storeId) return { total: 0, items: [] };
    return listRefundsOfPayment(request.id, query);
  }
  return listRefunds(caller.businessId, { storeId, page: query.page, limit: query.limit });
}
