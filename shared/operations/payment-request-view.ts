import type { CompletedTransaction, PaymentRequest } from '#shared/data/payment-request.ts';
import { executedAtFormat } from '#shared/domain/dates.ts';
import { derivedUuid } from '#shared/domain/ids.ts';
import { hasEnded } from '#shared/domain/payment-lifetime.ts';

/**
 * A payment request as every reader sees it: one still `pending` in the table but over by time is
 * `error` / `expired`, with the very transaction its expiry will write (same id, `executedAt` its
 * `expiresAt`), so an answer given before the background expiry ran and one given after are the
 * same. Nothing here writes; it imports no write path, so the pages and GET stay small.
 */
export function asSeenAt(request: PaymentRequest, now = new Date()): PaymentRequest {
  if (!hasEnded(request, now)) return request;
  return {
    ...request,
    status: 'error',
    errorReason: 'expired',
    transaction: endedTransaction(request, new Date(request.expiresAt)),
  };
}

/**
 * The failed transaction of a request that ended unpaid: no money moved, no fee. Its id comes from
 * the request, so whoever builds it (a reader, the expiry, a retried cancel) builds the same one,
 * and with it the same TRANSACTION_COMPLETED event id.
 */
export function endedTransaction(request: PaymentRequest, endedAt: Date): CompletedTransaction {
  return {
    id: derivedUuid(`ended:${request.id}`),
    amount: { amount: request.amountCents, currency: request.currency },
    fees: { amount: 0, currency: request.currency },
    status: 'error',
    counterpartLabel: request.payerPhone ?? 'Client',
    counterpartIdentifier: request.payerPhone ?? request.deviceId ?? '',
    description: request.description ?? `Payment ${request.reference}`,
    executedAt: executedAtFormat(endedAt),
  };
}
