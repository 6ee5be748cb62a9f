import { providerCallbackEndpoints } from '#shared/api/provider-callbacks.ts';
import { Unauthorized } from '#shared/errors/auth.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { verifiedSmileIdResult } from '#shared/identity/smile-id.ts';
import { logger } from '#shared/logger.ts';
import { applySmileIdResult, identityVendor } from '#shared/operations/compliance-verifications.ts';

/**
 * Smile ID tells the service how an owner's identity check ended. Only a fresh, signed result on a
 * stage that uses Smile ID is read, and what moves the verification is its job status, asked of
 * Smile ID; anything else is answered 401 with nothing written.
 */
export const handler = apiHandler(
  providerCallbackEndpoints.receiveSmileIdCallback,
  async ({ rawBody, requestId }) => {
    const result = identityVendor() === 'smileid' ? await verifiedSmileIdResult(rawBody) : undefined;
    if (!result) {
      logger.warn('smile id callback refused: not signed, stale, or no Smile ID on this stage', {
        requestId,
      });
      throw new Unauthorized();
    }
    const applied = await applySmileIdResult(result.verificationId, result.jobId, result.userId);
    logger.info('smile id callback', { applied, jobId: result.jobId, smileJobId: result.smileJobId });
    return { received: true as const, result: applied };
  },
);
