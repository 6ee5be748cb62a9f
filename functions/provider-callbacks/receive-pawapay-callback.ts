import { providerCallbackEndpoints } from '#shared/api/provider-callbacks.ts';
import { Unauthorized } from '#shared/errors/auth.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { logger } from '#shared/logger.ts';
import { announceOnDevice } from '#shared/operations/device-push.ts';
import { pawapayCallbackPath } from '#shared/providers/pawapay.ts';
import { pawapayCallbacksFor } from '#shared/providers/routing.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { settlePayout } from '#shared/settlement/payouts.ts';

/**
 * pawaPay tells the service how a deposit, payout or refund ended. Only a callback whose signature
 * holds (where the stage has pawaPay's key) and whose status pawaPay's status check confirms
 * changes anything; the rest is answered 401 with nothing written.
 */
export const handler = apiHandler(
  providerCallbackEndpoints.receivePawapayCallback,
  async ({ params, headers, rawBody, baseUrl, requestId }) => {
    const verifier = pawapayCallbacksFor(params.kind);
    // What pawaPay signed: the URL its dashboard holds for this kind, under the stage's base URL.
    const target = { method: 'POST', url: `${baseUrl}${pawapayCallbackPath(params.kind)}` };
    if (params.kind === 'deposits') {
      const callback = await verifier.verifyCallback(headers, rawBody, {}, target);
      if (!callback) return refused(params.kind, requestId);
      const { result, completed } = await completePayment(callback);
      await announceOnDevice(completed);
      logger.info('pawapay callback', { result, callbackId: callback.callbackId });
      return { received: true as const, result };
    }
    const callback = await verifier.verifyPayoutCallback(headers, rawBody, {}, target);
    if (!callback) return refused(params.kind, requestId);
    // The payout says what it pays (a transfer, a refund, an orphan's refund): one settlement.
    const result = await settlePayout({
      payoutId: callback.transferId,
      providerReference: callback.providerReference,
      outcome: callback.outcome,
    });
    logger.info('pawapay callback', { result, callbackId: callback.callbackId });
    return { received: true as const, result };
  },
);

function refused(kind: string, requestId: string): never {
  logger.warn('pawapay callback refused: bad signature, or not confirmed by the status check', {
    kind,
    requestId,
  });
  throw new Unauthorized();
}
