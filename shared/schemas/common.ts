import { int, iso, object, string } from 'zod';

/** An amount in cents (1 XOF = 100 cents) with its currency: every amount the API answers. */
export const money = object({
  amount: int().meta({ description: 'Cents: 150000 is 1 500 XOF.' }),
  currency: string().meta({ examples: ['XOF'] }),
}).meta({ id: 'Money', examples: [{ amount: 150000, currency: 'XOF' }] });

/** `YYYY-MM-DD HH:mm:ss`, UTC: the format integrations parse in transactions and webhooks. */
export const executedAt = string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .meta({ description: 'UTC, `YYYY-MM-DD HH:mm:ss`.', examples: ['2026-11-20 14:08:55'] });

/** An instant as ISO 8601 in UTC, as every `createdAt` and `updatedAt`. */
export const instant = iso.datetime().meta({ examples: ['2026-11-20T14:08:55.665Z'] });
