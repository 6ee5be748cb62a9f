import { enum as enumOf, literal, object } from 'zod';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';

export const providerCallbackParams = object({ provider: enumOf(providerCodes) });

export const providerCallbackContracts = {
  receiveProviderCallback: {
    tag: 'Providers',
    summary: 'Receive a provider’s callback',
    description:
      'Where a mobile-money provider tells the service how a collection ended, signed with the key it ' +
      'shares with the service. Only a verified callback changes anything; a repeated one changes nothing.',
    params: providerCallbackParams,
    response: object({
      received: literal(true),
      result: enumOf(['completed', 'already_completed', 'unknown_request', 'wrong_collection']),
    }),
    responseDescription: 'Taken into account (or already was).',
    errors: ['unauthorized'],
  },
} as const satisfies RouteContracts;
