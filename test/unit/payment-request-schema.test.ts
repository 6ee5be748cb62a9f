import { describe, expect, it } from 'vitest';
import { createPaymentRequestBody } from '#shared/api/payment-requests.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { parseInput } from '#shared/http/validation.ts';

const base = {
  storeId: '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11',
  amountCents: 150000,
  currency: 'XOF',
  reference: 'order-1',
};
const soundbox = (data: Record<string, unknown> = {}) => ({
  ...base,
  paymentDetails: { type: 'soundbox', data: { paymentMethod: 'mtn', deviceId: 'SoundBox-1', ...data } },
});
const redirect = (data: Record<string, unknown> = {}) => ({
  ...base,
  paymentDetails: { type: 'redirect', data: { paymentMethod: 'wave', ...data } },
});

function fieldErrors(input: unknown) {
  try {
    parseInput(createPaymentRequestBody, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors.map(({ field, rule }) => ({ field, rule }));
  }
  return [];
}

describe('return URLs of a payment request', () => {
  it('are not needed for a soundbox request', () => {
    expect(fieldErrors(soundbox())).toEqual([]);
  });

  it('are still checked on a soundbox request that gives them', () => {
    expect(fieldErrors(soundbox({ successUrl: 'javascript:alert(1)' }))).toEqual([
      { field: 'paymentDetails.data.successUrl', rule: 'url' },
    ]);
    expect(fieldErrors(soundbox({ errorUrl: 'shop/failed' }))).toContainEqual({
      field: 'paymentDetails.data.errorUrl',
      rule: 'format',
    });
  });

  it('are both required for a redirect request, each named', () => {
    expect(fieldErrors(redirect())).toEqual([
      { field: 'paymentDetails.data.successUrl', rule: 'required' },
      { field: 'paymentDetails.data.errorUrl', rule: 'required' },
    ]);
    expect(fieldErrors(redirect({ successUrl: 'https://shop.example/ok' }))).toEqual([
      { field: 'paymentDetails.data.errorUrl', rule: 'required' },
    ]);
  });
});

describe('the description of a payment request', () => {
  it('is optional, and kept when given', () => {
    expect(fieldErrors(soundbox())).toEqual([]);
    expect(parseInput(createPaymentRequestBody, soundbox({})).description).toBeUndefined();
    const described = { ...soundbox(), description: '2 pagnes wax' };
    expect(parseInput(createPaymentRequestBody, described).description).toBe('2 pagnes wax');
  });

  it('is at most 255 characters, and not blank', () => {
    expect(fieldErrors({ ...soundbox(), description: 'x'.repeat(255) })).toEqual([]);
    expect(fieldErrors({ ...soundbox(), description: 'x'.repeat(256) })).toEqual([
      { field: 'description', rule: 'max' },
    ]);
    expect(fieldErrors({ ...soundbox(), description: '   ' })).toEqual([
      { field: 'description', rule: 'min' },
    ]);
  });
});
