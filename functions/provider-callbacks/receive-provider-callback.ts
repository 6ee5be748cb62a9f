import { providerCallbackEndpoints } from '#shared/api/provider-callbacks.ts';
import { Unauthorized } from '#shared/errors/auth.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { logger } from '#shared/logger.ts';
import { announceOnDevice } from '#shared/operations/device-push.ts';
import { callbackVerifierFor } from '#shared/providers/routing.ts';
import { completePayment } from '#shared/settlement/collections.ts';

type CollectionCallback =
  | typeof providerCallbackEndpoints.receiveProviderCallback
  | typeof providerCallbackEndpoints.receiveProviderCallbackPut;

/** A provider tells the service how a collection ended. Only a verified callback changes anything. */
export const collectionCallbackHandler = (endpoint: CollectionCallback) =>
  apiHandler(endpoint, async ({ params, query, headers, rawBody, requestId }) => {
    const callback = await callbackVerifierFor(params.provider).verifyCallback(headers, rawBody, query);
    if (!callback) {
      logger.warn('provider callback refused: bad or missing signature', {
        provider: params.provider,
        requestId,
      });
      throw new Unauthorized();
    }
    const { result, completed } = await completePayment(callback);
    await announceOnDevice(completed);
    logger.info('provider callback', {
      result,
      callbackId: callback.callbackId,
      paymentRequestId: callback.paymentRequestId,
    });
    return { received: true, result };
  });

export const handler = collectionCallbackHandler(providerCallbackEndpoints.receiveProviderCallback);
