import { providerCallbackEndpoints } from '#shared/api/provider-callbacks.ts';
import { Unauthorized } from '#shared/errors/auth.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { logger } from '#shared/logger.ts';
import { completeRefund } from '#shared/operations/complete-refund.ts';
import { completeTransfer } from '#shared/operations/complete-transfer.ts';
import { completeOrphanRefund } from '#shared/operations/orphan-collections.ts';
import { dispatchPromptly } from '#shared/operations/webhook-dispatch.ts';
import { callbackVerifierFor } from '#shared/providers/routing.ts';

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
    // A payout that is no transfer's may be an orphan collection's refund to its payer, or a
    // refund of a paid payment.
    const { result, events } = (await completeTransfer(callback)
      .then((completion) =>
        completion.result === 'unknown_transfer' ? completeOrphanRefund(callback) : completion,
      )
      .then((completion) => completion ?? completeRefund(callback))) ?? {
      result: 'unknown_transfer' as const,
      events: [],
    };
    await dispatchPromptly(events);
    logger.info('payout callback', {
      result,
      callbackId: callback.callbackId,
      transferId: callback.transferId,
    });
    return { received: true, result };
  });

export const handler = payoutCallbackHandler(providerCallbackEndpoints.receivePayoutCallback);
