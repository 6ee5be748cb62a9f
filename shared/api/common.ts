import {
  _default,
  array,
  coerce,
  enum as enumOf,
  globalRegistry,
  gte,
  int,
  iso,
  lte,
  multipleOf,
  object,
  overwrite,
  regex,
  string,
  transform,
  uuid,
  type ZodMiniType,
} from 'zod/mini';
import type { $RefinementCtx, $ZodRawIssue } from 'zod/v4/core';
import { maxAmountCents } from '#shared/domain/money.ts';
import {
  canonicalPaymentMethod,
  type PaymentMethodAlias,
  paymentMethodAliases,
} from '#shared/domain/payment-methods.ts';

/**
 * An amount to move, in cents of XOF, from `min`: whole francs only (a multiple of 100). XOF has no
 * smaller unit and no operator of the zone takes one (pawaPay's active configuration says
 * `decimalsInAmount: NONE` for every XOF provider; Wave and MTN MoMo take whole francs), so 100050
 * would fail at the provider after the request exists: it is refused here, on every stage, the
 * sandbox included, before anything is written. The bounds are checked first and stop there.
 */
export const wholeFrancCents = (min: number) =>
  int().check(
    gte(min, { abort: true }),
    lte(maxAmountCents, { abort: true }),
    multipleOf(100, { error: 'must be whole francs (a multiple of 100 cents): XOF has no smaller unit' }),
  );

/** An amount in cents (1 XOF = 100 cents) with its currency: every amount the API answers. */
export const money = object({
  amount: int().register(globalRegistry, { description: 'Cents: 150000 is 1 500 XOF.' }),
  currency: string().register(globalRegistry, { examples: ['XOF'] }),
}).register(globalRegistry, { id: 'Money', examples: [{ amount: 150000, currency: 'XOF' }] });

/** `YYYY-MM-DD HH:mm:ss`, UTC: the format integrations parse in transactions and webhooks. */
export const executedAt = string()
  .check(regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/))
  .register(globalRegistry, {
    description: 'UTC, `YYYY-MM-DD HH:mm:ss`.',
    examples: ['2026-11-20 14:08:55'],
  });

/** The path of an object addressed by its id: `/payment_requests/{id}`, `/pl/{id}`... */
export const idPathParams = object({ id: uuid() });

/** An instant as ISO 8601 in UTC, as every `createdAt` and `updatedAt`. */
export const instant = iso.datetime().register(globalRegistry, { examples: ['2026-11-20T14:08:55.665Z'] });

/**
 * A transform that may refuse its input with an issue, as classic zod's `.transform` allows: the
 * zod/mini transform hands the bare parse payload, so `addIssue` is given back here, with classic's
 * meaning (a `custom` issue on the value being transformed, its message and params as given).
 */
export const transformWithIssues = <I, O>(fn: (value: I, context: $RefinementCtx<I>) => O) =>
  transform<I, O>((value, payload) => {
    const addIssue = (issue: string | $ZodRawIssue | Partial<$ZodRawIssue>) => {
      payload.issues.push(
        typeof issue === 'string'
          ? { code: 'custom', message: issue, input: value }
          : ({ code: 'custom', input: value, ...issue } as $ZodRawIssue),
      );
    };
    return fn(value, Object.assign(payload, { addIssue }) as $RefinementCtx<I>);
  });

/**
 * The fields of a page of a list, as the transaction list has them (`{total, perPage, currentPage,
 * data}`): every list of the API pages the same way.
 */
export const pageOf = <Item extends ZodMiniType>(item: Item) => ({
  total: int(),
  perPage: int(),
  currentPage: int(),
  data: array(item),
});

/** The query fields that choose a page of a list: `page` from 1, `limit` items (1 to 100, 100 by default). */
export const pagingQuery = {
  page: _default(coerce.number().check(int(), gte(1)), 1),
  limit: _default(coerce.number().check(int(), gte(1), lte(100)), 100),
};

/**
 * A `paymentMethod` a request gives, among `codes`: the aliases integrations send (`orange_money`)
 * are taken too and read as their code, so every endpoint taking a method stores and answers
 * `orange` however it was sent. The reference lists the aliases among the values.
 */
export function paymentMethodInput<Code extends string>(codes: readonly [Code, ...Code[]], description = '') {
  const given = enumOf([...codes, ...Object.keys(paymentMethodAliases)] as [string, ...string[]]).check(
    // An overwrite, not a transform: zod leaves the examples out of the JSON Schema of a request
    // body holding a transform. It makes the value the code, so it is typed as the code.
    overwrite(canonicalPaymentMethod),
  );
  return given.register(globalRegistry, {
    description: `${description}${description ? ' ' : ''}\`orange_money\` is taken as \`orange\`.`,
  }) as unknown as ZodMiniType<Code, Code | PaymentMethodAlias>;
}
