import { enum as enumOf, globalRegistry, gte, int, lte, object, optional, string, uuid } from 'zod/mini';
import { instant } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text } from '#shared/api/form-fields.ts';
import { maxSmsPurchase, minSmsPurchase } from '#shared/operations/sms-credit.ts';

/**
 * SMS credit bought from a store's balance (issue 34, item 4), through the API and the dashboard's
 * SMS page: the business's first "ask for a payment by SMS" needs no operator.
 */
export const buySmsCreditBody = object({
  storeId: uuid().register(globalRegistry, { description: 'The store whose available balance pays.' }),
  segments: int()
    .check(gte(minSmsPurchase), lte(maxSmsPurchase))
    .register(globalRegistry, { description: 'SMS segments to add to the business’s balance.' }),
}).register(globalRegistry, {
  examples: [{ storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10', segments: 100 }],
});

export const smsPurchaseSchema = object({
  id: uuid(),
  storeId: uuid(),
  segments: int(),
  price: object({ amount: int(), currency: string() }).register(globalRegistry, {
    description: 'What the store paid, in cents: the segments at the stage’s price per segment.',
  }),
  smsBalance: int().register(globalRegistry, { description: 'The business’s SMS balance after it.' }),
  createdAt: instant,
}).register(globalRegistry, { id: 'SmsCreditPurchase' });

const access = ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'] as const;

export const smsCreditEndpoints = /* @__PURE__ */ endpointsIn('messages', {
  buySmsCredit: {
    method: 'POST',
    path: '/partner_api/sms_credit_purchases',
    caller: 'api_key',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    tag: 'Messages',
    summary: 'Buy SMS credit from a store’s available balance',
    body: buySmsCreditBody,
    status: 201,
    response: smsPurchaseSchema,
    responseDescription:
      'The purchase and the new SMS balance; a `sms_credit` line in the store’s transactions.',
    idempotent: true,
    errors: ['store_not_found', 'insufficient_balance'],
  },
  buySmsCreditPage: {
    method: 'POST',
    path: '/dashboard/sms/credit',
    caller: 'public',
    permission: 'buySmsCredit',
    access: [...access],
    page: true,
    tag: 'Dashboard',
    summary: 'Buy SMS credit: a check step with the price, then the purchase from the chosen store',
    query: object({ lang: optional(enumOf(['fr', 'en'])) }),
    form: object({
      csrf: string(),
      storeId: text(),
      segments: text().register(globalRegistry, { description: 'One of the packs: 100, 500, 1000, 5000.' }),
      idempotencyKey: optional(string()).register(globalRegistry, {
        description: 'The check step’s key: with it, buy; a second post gets the first answer.',
      }),
    }),
    answers: {
      200: 'The check step: the segments, the price and the store that pays.',
      303: 'Bought: to the SMS page, with the new balance.',
      400: 'The SMS page again, each wrong field named.',
      403: 'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.',
      404: 'A store that is not the business’s.',
      422: 'The store’s available balance does not cover the price: nothing bought.',
    },
  },
});
