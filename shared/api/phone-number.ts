import { pipe, string } from 'zod/mini';
import { transformWithIssues } from '#shared/api/common.ts';
import { normalisePhoneNumber } from '#shared/domain/phone-numbers.ts';

/** A phone number field, normalised to E.164; a number that cannot be read is rule `format`. */
export const phoneNumber = (field: string) =>
  pipe(
    string(),
    transformWithIssues((raw, context) => {
      const normalised = normalisePhoneNumber(raw);
      if (normalised) return normalised;
      context.addIssue({
        code: 'custom',
        params: { rule: 'format' },
        message: `The ${field} field must be a phone number in international form (+ and 8 to 15 digits), or an Ivorian number (0700000001, 00225…).`,
      });
      return raw;
    }),
  );
