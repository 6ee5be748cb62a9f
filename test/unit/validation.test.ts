import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { array, boolean, enum as enumOf, int, object, string, uuid } from 'zod';
import { ValidationFailed } from '#shared/errors/request.ts';
import { illFormedText, parseInput } from '#shared/http/validation.ts';

const schema = object({
  storeId: uuid(),
  amountCents: int().min(100),
  reference: string().min(1).max(5),
  paymentDetails: object({
    type: enumOf(['redirect', 'soundbox']),
    data: object({
      forceProviderDirect: boolean().optional(),
      payerPhone: string()
        .regex(/^\+225\d{10}$/, 'must be +225 followed by 10 digits')
        .optional(),
    }),
  }),
});

function fieldErrors(input: unknown) {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors;
  }
  throw new Error('expected a validation error');
}

const valid = {
  storeId: '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11',
  amountCents: 100,
  reference: 'abc',
  paymentDetails: { type: 'redirect', data: {} },
};

describe('validation errors name the field and the rule', () => {
  it('passes valid input through, dropping nothing it knows', () => {
    expect(parseInput(schema, valid)).toEqual(valid);
  });

  it('reports a missing field as rule "required"', () => {
    const { storeId: _, ...withoutStore } = valid;
    expect(fieldErrors(withoutStore)).toEqual([
      { field: 'storeId', rule: 'required', message: 'The storeId field is required.' },
    ]);
  });

  it('reports a value outside a set as rule "in", listing the allowed values', () => {
    const errors = fieldErrors({ ...valid, paymentDetails: { type: 'qr', data: {} } });
    expect(errors).toEqual([
      {
        field: 'paymentDetails.type',
        rule: 'in',
        message: 'The paymentDetails.type field must be one of: redirect, soundbox.',
      },
    ]);
  });

  it('reports a missing field of fixed values as rule "required", not "in"', () => {
    const { type: _type, ...details } = valid.paymentDetails;
    expect(fieldErrors({ ...valid, paymentDetails: details })).toEqual([
      {
        field: 'paymentDetails.type',
        rule: 'required',
        message: 'The paymentDetails.type field is required.',
      },
    ]);
  });

  it('reports a malformed UUID as rule "uuid"', () => {
    expect(fieldErrors({ ...valid, storeId: 'store-1' })).toEqual([
      { field: 'storeId', rule: 'uuid', message: 'The storeId field must be a valid UUID.' },
    ]);
  });

  it('reports bounds as "min" and "max"', () => {
    const errors = fieldErrors({ ...valid, amountCents: 99, reference: 'too long' });
    expect(errors.map(({ field, rule }) => ({ field, rule }))).toEqual([
      { field: 'amountCents', rule: 'min' },
      { field: 'reference', rule: 'max' },
    ]);
    expect(errors[0]?.message).toBe('The amountCents field must be at least 100.');
  });

  it('reports a wrong type as rule "type", not as "required"', () => {
    expect(fieldErrors({ ...valid, amountCents: '100' })).toEqual([
      { field: 'amountCents', rule: 'type', message: 'The amountCents field must be of type number.' },
    ]);
  });

  it('says what a pattern means when the schema explains it', () => {
    const errors = fieldErrors({
      ...valid,
      paymentDetails: { type: 'redirect', data: { payerPhone: '0700000000' } },
    });
    expect(errors).toEqual([
      {
        field: 'paymentDetails.data.payerPhone',
        rule: 'format',
        message: 'The paymentDetails.data.payerPhone field must be +225 followed by 10 digits.',
      },
    ]);
  });

  it('names the body itself when the body is missing', () => {
    expect(fieldErrors(undefined)).toEqual([
      { field: 'body', rule: 'required', message: 'The body field is required.' },
    ]);
  });
});

describe('text that is not well-formed Unicode', () => {
  const schema = object({ reference: string(), tags: array(string()).optional() });

  it('is refused in any string field, naming it, before the schema runs', () => {
    let error: unknown;
    try {
      parseInput(schema, { reference: 'order-\ud800', tags: ['ok', '\udfff'] });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).extras).toEqual({
      errors: [
        expect.objectContaining({ field: 'reference', rule: 'format' }),
        expect.objectContaining({ field: 'tags.1', rule: 'format' }),
      ],
    });
  });

  it('lets surrogate pairs through: they are the way JSON writes characters beyond the BMP', () => {
    expect(parseInput(schema, { reference: 'order-\u{1F600}' })).toEqual({ reference: 'order-\u{1F600}' });
  });

  it('finds exactly the strings with a lone surrogate', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 16 }), (text) => {
        // encodeURIComponent throws on exactly the strings UTF-8 cannot encode.
        const wellFormed = (() => {
          try {
            encodeURIComponent(text);
            return true;
          } catch {
            return false;
          }
        })();
        return (illFormedText({ text }).length === 0) === wellFormed;
      }),
    );
    // A hundred runs take well under a second alone; on a machine whose cores other work holds,
    // over 5 s was seen. What is asserted is the answer, not the time (timings are the bench's).
  }, 30_000);
});
