import { payerMayRetry } from '#shared/domain/payment-lifetime.ts';

/**
 * What a provider's report of a collection (a verified callback, or its status query) means for
 * the payment request it names, decided from the request as it stands, before anything is written:
 * - `pay`, `fail`: the request's own collection ended, the request with it;
 * - `attempt_failed`: it failed on the hosted page, where the payer may try again;
 * - `orphan`: another collection of the request succeeded (the payer paid twice, or after the
 *   request ended), or the request's own succeeded after the service refused its money: the money
 *   is the payer's, refunded;
 * - `not_recorded_yet`: a collection the request has not heard of while it is open (the report
 *   outran the recording of its start): the provider is asked to send it again;
 * - `other_failed`, `already_completed`: nothing to do.
 */
export type CollectionVerdict =
  | 'pay'
  | 'fail'
  | 'attempt_failed'
  | 'orphan'
  | 'not_recorded_yet'
  | 'other_failed'
  | 'already_completed';

/** The reasons a request ends `error` though its provider collected: the service refused the money. */
export const refusedMoneyReasons = ['collection_ceiling_exceeded', 'E_PAYMENT_LINK_IS_INVALID'];

export interface ReportedRequest {
  status: 'pending' | 'success' | 'error';
  errorReason?: string | null | undefined;
  providerReference?: string | undefined;
  supersededCollections?: readonly string[] | undefined;
  type: string;
  forceProviderDirect: boolean;
}

export function judgeCollectionReport(
  request: ReportedRequest,
  report: { providerReference: string; outcome: string },
): CollectionVerdict {
  const paid = report.outcome === 'success';
  if (request.providerReference !== report.providerReference) {
    if (!paid) return 'other_failed';
    const known =
      request.status !== 'pending' ||
      (request.supersededCollections ?? []).includes(report.providerReference);
    return known ? 'orphan' : 'not_recorded_yet';
  }
  if (request.status !== 'pending') {
    const refused = request.status === 'error' && refusedMoneyReasons.includes(request.errorReason ?? '');
    return paid && refused ? 'orphan' : 'already_completed';
  }
  if (paid) return 'pay';
  return payerMayRetry(request) ? 'attempt_failed' : 'fail';
}
