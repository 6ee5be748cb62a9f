import { payoutCallbackHandler } from '#functions/provider-callbacks/receive-payout-callback.ts';
import { providerCallbackEndpoints } from '#shared/api/provider-callbacks.ts';

// MTN MoMo calls back with PUT as often as POST: the same handling, as a function of its own.
export const handler = payoutCallbackHandler(providerCallbackEndpoints.receivePayoutCallbackPut);
