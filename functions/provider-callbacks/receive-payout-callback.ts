import { providerCallbackEndpoints } from '#shared/api/provider-callbacks.ts';
import { Unauthorized } from '#shared/errors/auth.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { logger } from '#shared/logger.ts';
import { callbackVerifierFor } from '#shared/providers/routing.ts';
import { settlePayout } from '#shared/settlement/payouts.ts';

type PayoutCallback =
  | typeof providerCallbackEndpoints.receivePayoutCallback
  | typeof providerCallbackEndpoints.receivePayoutCallbackPut;

/** A provider tells the service how a payout ended. Only a verified callback changes anything. */
export const payoutCallbackHandler = (endpoint: PayoutCallback) =>
  apiHandler(endpoint, async ({ params, query, headers, rawBody, requestId }) => {
    const callback = await callbackVerifierFor(params.provider).verifyPayoutCallback(headers, rawBody, query);
    if (!callback) {
      logger.warn('payout callback refused: bad or missing signature', {
        method: params.provider,
        requestId,
      });
      throw new Unauthorized();
    }
    // The payout says what it pays (a transfer, a refund, an orphan's refund): one settlement.
    const result = await settlePayout({
      payoutId: callback.transferId,
      providerReference: callback.providerReference,
      outcome: callback.outcome,
    });
    logger.info('payout callback', {
      result,
      callbackId: callback.callbackId,
      transferId: callback.transferId,
    });
    return { received: true, result };
  });

export const handler = payoutCallbackHandler(providerCallbackEndpoints.receivePayoutCallback);
