import { enum as enumOf, globalRegistry, literal, maxLength, object, optional, string } from 'zod/mini';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';

export const providerCallbackParams = object({ provider: enumOf(providerCodes) });

/**
 * What the service put in the callback URL it gave the provider: MTN MoMo's callbacks carry no
 * signature, so their URL names the collection (`reference`), which the adapter confirms by asking
 * MTN for its status. Other providers' callbacks have none.
 */
export const providerCallbackQuery = object({
  reference: optional(string().check(maxLength(128))).register(globalRegistry, {
    description: 'MTN MoMo only: the collection or payout this callback is about.',
  }),
});

const callbackDescription =
  'Where a mobile-money provider tells the service how a collection ended, signed with the key it ' +
  'shares with the service. Only a verified callback changes anything; a repeated one changes nothing. ' +
  'A successful collection that completed nothing (the payer paid the request a second time, with ' +
  'another provider) is refunded to the payer (`orphan_collection`); a callback that outruns the ' +
  'recording of its collection’s start is answered 409, to be sent again.';

const receiveProviderCallback = {
  tag: 'Providers',
  summary: 'Receive a provider’s callback',
  description: callbackDescription,
  params: providerCallbackParams,
  query: providerCallbackQuery,
  response: object({
    received: literal(true),
    result: enumOf([
      'completed',
      'already_completed',
      'unknown_request',
      'wrong_collection',
      'orphan_collection',
    ]),
  }),
  responseDescription: 'Taken into account (or already was).',
  errors: ['unauthorized', 'conflict'],
} as const;

export const providerCallbackContracts = {
  receiveProviderCallback,
  // The same route answered for PUT, which MTN MoMo uses as often as POST.
  receiveProviderCallbackPut: {
    ...receiveProviderCallback,
    summary: 'Receive a provider’s callback (PUT)',
    description: `MTN MoMo calls back with PUT as often as POST: the same as the POST. ${callbackDescription}`,
  },
} as const satisfies RouteContracts;
