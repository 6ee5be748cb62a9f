import { enum as enumOf, globalRegistry, literal, maxLength, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { completesCollections, settlesPayouts } from '#shared/catalogue/access.ts';
import { contactMethods } from '#shared/domain/contacts.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';

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
  kind: optional(literal('refund')).register(globalRegistry, {
    description: 'MTN MoMo only: the payout callback is a refund’s, whose status MTN answers apart.',
  }),
});

/** A payout's provider: a contact's payment method, or `bank`. */
export const payoutCallbackParams = object({ provider: enumOf([...contactMethods]) });

/** What a collection's callback did (settlement/collections.ts), and a payout's (settlement/payouts.ts). */
const collectionResults = [
  'completed',
  'already_completed',
  'unknown_request',
  'wrong_collection',
  'orphan_collection',
] as const;
const payoutResults = ['completed', 'already_completed', 'unknown_transfer', 'wrong_payout'] as const;

/** What a collection's callback is, whichever method the provider calls back with. */
const collectionCallback = {
  path: '/provider_callbacks/{provider}',
  caller: 'public',
  // Sends the webhooks of the payment it completes at once; the outbox sweeper is the fallback.
  access: [
    'table:GetItem',
    'table:PutItem',
    'table:UpdateItem',
    'table:ConditionCheckItem',
    ...completesCollections,
  ],
  tag: 'Providers',
  params: providerCallbackParams,
  query: providerCallbackQuery,
  response: object({ received: literal(true), result: enumOf(collectionResults) }),
  responseDescription: 'Taken into account (or already was).',
  errors: ['unauthorized', 'conflict'],
} as const;

/** What a payout's callback is, whichever method the provider calls back with. */
const payoutCallback = {
  // API Gateway wants one name for the path variable under a resource: {provider}, as above,
  // though a bank payout's is `bank`.
  path: '/provider_callbacks/{provider}/payouts',
  caller: 'public',
  access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'table:DeleteItem', ...settlesPayouts],
  tag: 'Providers',
  params: payoutCallbackParams,
  query: providerCallbackQuery,
  response: object({
    received: literal(true),
    result: enumOf(payoutResults),
  }),
  responseDescription: 'Taken into account (or already was).',
  errors: ['unauthorized'],
} as const;

/** The kinds of pawaPay's callbacks, each at the URL its dashboard is given for it. */
export const pawapayCallbackParams = object({ kind: enumOf(['deposits', 'payouts', 'refunds']) });

/**
 * pawaPay's callbacks (https://docs.pawapay.io/v2/api-reference/deposits/deposit-callback): one
 * route for the three kinds, since they differ only in what they settle. Signed by RFC 9421 where
 * the stage holds pawaPay's key; believed only as far as pawaPay's status check agrees.
 */
const pawapayCallback = {
  path: '/provider_callbacks/pawapay/{kind}',
  caller: 'public',
  access: [
    'table:GetItem',
    'table:PutItem',
    'table:UpdateItem',
    'table:DeleteItem',
    'table:ConditionCheckItem',
    // What completing a payment may touch (a soundbox, an escrow's schedule, the providers'
    // secrets); a payout's settlement needs nothing more.
    ...completesCollections,
  ],
  tag: 'Providers',
  params: pawapayCallbackParams,
  response: object({
    received: literal(true),
    result: enumOf([...new Set([...collectionResults, ...payoutResults])]),
  }),
  responseDescription: 'Taken into account (or already was).',
  errors: ['unauthorized', 'conflict'],
} as const;

/** MTN MoMo calls back with PUT as often as POST (its callback guide asks for both). */
export const providerCallbackEndpoints = /* @__PURE__ */ endpointsIn('provider-callbacks', {
  receiveProviderCallback: {
    method: 'POST',
    ...collectionCallback,
    summary: 'Receive a provider’s callback',
  },
  receiveProviderCallbackPut: {
    method: 'PUT',
    ...collectionCallback,
    summary: 'Receive a provider’s callback (PUT)',
  },
  receivePayoutCallback: {
    method: 'POST',
    ...payoutCallback,
    summary: 'Receive a provider’s payout callback',
  },
  receivePayoutCallbackPut: {
    method: 'PUT',
    ...payoutCallback,
    summary: 'Receive a provider’s payout callback (PUT)',
  },
  receivePawapayCallback: {
    method: 'POST',
    ...pawapayCallback,
    summary: 'Receive a pawaPay callback (deposits, payouts, refunds)',
  },
  receiveSmileIdCallback: {
    method: 'POST',
    path: '/identity_callbacks/smileid',
    caller: 'public',
    // The verification, the business's level and API access, the open pointer; Smile ID's key,
    // which checks the callback's signature and signs the job status asked (none where the
    // stage's identity vendor is the sandbox: the route then refuses every callback).
    access: ['table:GetItem', 'table:UpdateItem', 'table:DeleteItem', 'secret:identity'],
    tag: 'Providers',
    summary: 'Receive a Smile ID result (an owner’s identity check)',
    response: object({
      received: literal(true),
      result: enumOf(['approved', 'rejected', 'retry', 'pending', 'unknown', 'already_completed']),
    }),
    responseDescription: 'Taken into account (or already was).',
    errors: ['unauthorized'],
  },
});
