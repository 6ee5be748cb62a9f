import { Unauthorized } from '#shared/errors/auth.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { logger } from '#shared/logger.ts';
import { completeTransfer } from '#shared/operations/complete-transfer.ts';
import { completeOrphanRefund } from '#shared/operations/orphan-collections.ts';
import { dispatchPromptly } from '#shared/operations/webhook-dispatch.ts';
import { callbackVerifierFor } from '#shared/providers/routing.ts';
import { transferRoutes } from '#shared/routes.ts';
import { providerCallbackQuery } from '#shared/schemas/provider-callbacks.ts';
import { payoutCallbackParams } from '#shared/schemas/transfers.ts';

/** A provider tells the service how a payout ended. Only a verified callback changes anything. */
export const handler = apiHandler(
  transferRoutes.receivePayoutCallback,
  { params: payoutCallbackParams, query: providerCallbackQuery },
  async ({ params, query, headers, rawBody, requestId }) => {
    const callback = await callbackVerifierFor(params.provider).verifyPayoutCallback(headers, rawBody, query);
    if (!callback) {
      logger.warn('payout callback refused: bad or missing signature', {
        method: params.provider,
        requestId,
      });
      throw new Unauthorized();
    }
    // A payout that is no transfer's may be an orphan collection's refund to its payer.
    const { result, events } = (await completeTransfer(callback).then((completion) =>
      completion.result === 'unknown_transfer' ? completeOrphanRefund(callback) : completion,
    )) ?? { result: 'unknown_transfer' as const, events: [] };
    await dispatchPromptly(events);
    logger.info('payout callback', {
      result,
      callbackId: callback.callbackId,
      transferId: callback.transferId,
    });
    return { received: true, result };
  },
);
