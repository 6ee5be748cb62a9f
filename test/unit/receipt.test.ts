import { describe, expect, it } from 'vitest';
import { checkPayerForm } from '#shared/operations/hosted-payment.ts';
import { dayAndTime, localPhone, maskPhone, shortReference } from '#shared/pages/format.ts';
import { merchantInitials } from '#shared/pages/payer-form.ts';

describe('what a payer reads on the hosted pages', () => {
  it('masks the payer number but for the operator prefix and the last two digits, unbreakable', () => {
    expect(maskPhone('+2250707123456')).toBe('+225\u00a007\u00a0••\u00a0••\u00a0••\u00a056');
    expect(maskPhone('not a number')).toBe('not a number');
  });

  it('shows a number in the field after the fixed +225 as it is written locally', () => {
    expect(localPhone('+2250707123456')).toBe('07 07 12 34 56');
    expect(localPhone('12345')).toBe('12345');
  });

  it('gives a transaction a short reference, the start of its id, that can be read out', () => {
    expect(shortReference('bfe37c2f-5d1e-49f0-a808-880f6e193b7b')).toBe('BFE3-7C2F');
  });

  it("dates a transaction in Côte d'Ivoire's time, which is UTC", () => {
    expect(dayAndTime('2026-11-23 02:14:05')).toEqual(['23/11/2026', '02:14']);
  });

  it("marks a merchant with the initials of its name's first two words", () => {
    expect(merchantInitials('Demo Boutique Plateau')).toBe('DB');
    expect(merchantInitials('épicerie')).toBe('É');
    expect(merchantInitials('  ')).toBe('?');
  });

  it('tells an empty phone apart from a malformed one', () => {
    expect(checkPayerForm({ paymentMethod: 'wave', payerPhone: ' ' }, 'CI')).toMatchObject({
      errors: { payerPhone: 'required' },
    });
    expect(checkPayerForm({ paymentMethod: 'wave', payerPhone: '12345' }, 'CI')).toMatchObject({
      errors: { payerPhone: 'format' },
    });
    expect(checkPayerForm({ paymentMethod: 'wave', payerPhone: '07 07 12 34 56' }, 'CI')).toEqual({
      method: 'wave',
      phone: '+2250707123456',
    });
  });
});
