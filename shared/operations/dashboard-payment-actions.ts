import { randomUUID } from 'node:crypto';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { PaymentRequestNotCancellable } from '#shared/errors/payment-requests.ts';
import { OperatorUnavailable } from '#shared/errors/providers.ts';
import {
  PaymentRequestNotRefundable,
  RefundAboveRemaining,
  RefundExistsWithReference,
} from '#shared/errors/refunds.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { actionablePayment, type TransactionDetail } from '#shared/operations/dashboard-transactions.ts';
import { cancelPaymentRequestFor } from '#shared/operations/end-payment.ts';
import { createRefundFor, minRefundCents, refundFeeOf } from '#shared/operations/refunds.ts';
import { formatAmount } from '#shared/pages/format.ts';

/**
 * A transaction page's actions, through the API's own operations: a refund (`createRefundFor`,
 * its fee by the same rule, `refundFeeOf`) and the cancellation of a pending request
 * (`cancelPaymentRequestFor`), each recorded in the audit log.
 *
 * A refund is asked in two steps: the amount, then a confirmation that shows the amount, the fee
 * and what leaves the store's balance. The confirmation carries a key made for it; the refund's
 * reference is `dashboard-<key>`, and references are unique per business (their claim is in the
 * refund's transaction), so the same confirmation posted twice refunds once: the second post finds
 * the reference taken and answers as the first did.
 */
export type RefundProblem =
  | { kind: 'amount'; reason: 'missing' | 'not_a_number' | 'too_small' | 'too_large'; remainingCents: number }
  | { kind: 'not_refundable' }
  | { kind: 'insufficient_balance' }
  /** The payer's operator is down (the API's 503 `provider_unavailable`): nothing was done. */
  | { kind: 'operator_down' }
  | { kind: 'not_cancellable' };

export class ActionRefused extends Error {
  constructor(
    readonly problem: RefundProblem,
    readonly status: 400 | 409 | 503,
  ) {
    super(problem.kind);
  }
}

export interface RefundPreview {
  amountCents: number;
  feeCents: number;
  /** What the store's balance gives: amount + fee (the operation reserves exactly this). */
  totalCents: number;
  key: string;
}

/** Francs as typed ("1500", "1 500", "1.500"): whole francs only, the franc having no subunit in use. */
export function centsOfFrancs(typed: string): number | undefined {
  const compact = typed.replace(/[\s\u00a0\u202f.]/g, '').replace(/(F|FCFA|XOF)$/i, '');
  if (!/^\d{1,10}$/.test(compact)) return undefined;
  return Number(compact) * 100;
}

function refundable(detail: TransactionDetail): PaymentRequest {
  const request = actionablePayment(detail);
  if (request?.status !== 'success' || detail.refundableCents <= 0)
    throw new ActionRefused({ kind: 'not_refundable' }, 409);
  return request;
}

/** The amount step: checked against what remains refundable; the confirmation's figures. */
export function previewRefund(detail: TransactionDetail, typed: string): RefundPreview {
  const request = refundable(detail);
  const remainingCents = detail.refundableCents;
  const amountCents = typed.trim() === '' ? undefined : centsOfFrancs(typed);
  const problem = (reason: 'missing' | 'not_a_number' | 'too_small' | 'too_large') =>
    new ActionRefused({ kind: 'amount', reason, remainingCents }, 400);
  if (typed.trim() === '') throw problem('missing');
  if (amountCents === undefined) throw problem('not_a_number');
  if (amountCents < minRefundCents) throw problem('too_small');
  if (amountCents > remainingCents) throw problem('too_large');
  const feeCents = refundFeeOf(request, amountCents);
  return { amountCents, feeCents, totalCents: amountCents + feeCents, key: randomUUID() };
}

/**
 * The confirmed refund, through the API's operation. A key already used (the same confirmation
 * posted again) refunds nothing more. Answers the refund's id, or undefined for a repeat.
 */
export async function confirmRefund(
  member: ActingMember,
  detail: TransactionDetail,
  form: { amountCents: string; key: string },
  request: { baseUrl: string; sourceIp: string },
): Promise<string | undefined> {
  const payment = refundable(detail);
  const amountCents = Number(form.amountCents);
  if (!uuidPattern.test(form.key) || !Number.isSafeInteger(amountCents))
    throw new ActionRefused(
      { kind: 'amount', reason: 'not_a_number', remainingCents: detail.refundableCents },
      400,
    );
  try {
    const refund = await createRefundFor(
      callerForMember(member),
      { paymentRequestId: payment.id, amountCents, reference: `dashboard-${form.key.toLowerCase()}` },
      request.baseUrl,
    );
    await recordAudit(member, {
      action: 'refund_made',
      subjectId: refund.id,
      detail: `${formatAmount(refund.amountCents, refund.currency)} · ${payment.reference}`,
      sourceIp: request.sourceIp,
    });
    return refund.id;
  } catch (error) {
    if (error instanceof RefundExistsWithReference) return undefined;
    if (error instanceof RefundAboveRemaining) {
      throw new ActionRefused(
        { kind: 'amount', reason: 'too_large', remainingCents: detail.refundableCents },
        409,
      );
    }
    if (error instanceof PaymentRequestNotRefundable)
      throw new ActionRefused({ kind: 'not_refundable' }, 409);
    if (error instanceof InsufficientBalance) throw new ActionRefused({ kind: 'insufficient_balance' }, 409);
    if (error instanceof OperatorUnavailable) throw new ActionRefused({ kind: 'operator_down' }, 503);
    throw error;
  }
}

/** Cancels the pending request of the page, through the API's operation, and records it. */
export async function cancelPayment(
  member: ActingMember,
  detail: TransactionDetail,
  sourceIp: string,
): Promise<void> {
  const request = actionablePayment(detail);
  if (request?.status !== 'pending') throw new ActionRefused({ kind: 'not_cancellable' }, 409);
  try {
    await cancelPaymentRequestFor(callerForMember(member), request.id);
  } catch (error) {
    if (error instanceof PaymentRequestNotCancellable)
      throw new ActionRefused({ kind: 'not_cancellable' }, 409);
    throw error;
  }
  await recordAudit(member, {
    action: 'payment_cancelled',
    subjectId: request.id,
    detail: `${formatAmount(request.amountCents, request.currency)} · ${request.reference}`,
    sourceIp,
  });
}
