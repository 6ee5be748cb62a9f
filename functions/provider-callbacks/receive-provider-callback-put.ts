import { collectionCallbackHandler } from '#functions/provider-callbacks/receive-provider-callback.ts';
import { providerCallbackEndpoints } from '#shared/api/provider-callbacks.ts';

// MTN MoMo calls back with PUT as often as POST: the same handling, as a function of its own.
export const handler = collectionCallbackHandler(providerCallbackEndpoints.receiveProviderCallbackPut);
