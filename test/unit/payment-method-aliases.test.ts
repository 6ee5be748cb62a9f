import { describe, expect, it } from 'vitest';
import { toJSONSchema } from 'zod';
import type { $ZodType as ZodType } from 'zod/v4/core';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { createContactBody } from '#shared/api/contacts.ts';
import { createPaymentRequestBody } from '#shared/api/payment-requests.ts';
import { sandboxLinkPaymentBody } from '#shared/api/sandbox-payments.ts';
import { createTransferBody } from '#shared/api/transfers.ts';
import { canonicalPaymentMethod } from '#shared/domain/payment-methods.ts';

/** Every `paymentMethod` property of a JSON Schema, with its path. */
function paymentMethodsIn(schema: unknown, path = ''): { path: string; values: unknown[] }[] {
  if (!schema || typeof schema !== 'object') return [];
  const found: { path: string; values: unknown[] }[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, property] of Object.entries(value)) {
        const values = (property as { enum?: unknown[] }).enum;
        if (name === 'paymentMethod' && values) found.push({ path: `${path}.${name}`, values });
        found.push(...paymentMethodsIn(property, `${path}.${name}`));
      }
    } else {
      found.push(...paymentMethodsIn(value, path));
    }
  }
  return found;
}

describe('orange_money, another name integrations send for orange', () => {
  it('is taken by every endpoint whose input has a payment method', () => {
    const inputs = endpointEntries.flatMap(([name, endpoint]) =>
      (['body', 'query', 'form'] as const).flatMap((part) => {
        const schema = (endpoint as Partial<Record<typeof part, ZodType>>)[part];
        if (!schema) return [];
        const json = toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
        return paymentMethodsIn(json).map((found) => ({ where: `${name} ${part}${found.path}`, ...found }));
      }),
    );
    // Payment requests, the sandbox's link payment, contacts, transfers and the hosted pages' forms.
    expect(inputs.length).toBeGreaterThanOrEqual(6);
    for (const input of inputs) {
      expect(input.values, input.where).toContain('orange');
      expect(input.values, input.where).toContain('orange_money');
    }
  });

  it('is read as orange, so that it is stored and answered as orange', () => {
    expect(
      createPaymentRequestBody.parse({
        storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
        amountCents: 10_000,
        currency: 'XOF',
        reference: 'commande-1',
        paymentDetails: {
          type: 'redirect',
          data: {
            paymentMethod: 'orange_money',
            successUrl: 'https://shop.example/ok',
            errorUrl: 'https://shop.example/ko',
          },
        },
      }).paymentDetails.data.paymentMethod,
    ).toBe('orange');
    expect(
      sandboxLinkPaymentBody.parse({ paymentMethod: 'orange_money', payerPhone: '+2250700000001' })
        .paymentMethod,
    ).toBe('orange');
    const contact = createContactBody.parse({
      name: 'Fournisseur Bamba',
      paymentMethod: 'orange_money',
      identifier: { number: '0700000001' },
    });
    expect(contact.paymentMethod).toBe('orange');
    const transfer = createTransferBody.parse({
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      amountCents: 500,
      currency: 'XOF',
      name: 'Fournisseur Bamba',
      paymentMethod: 'orange_money',
      identifier: { number: '+2250700000001' },
    });
    expect(transfer.beneficiary).toMatchObject({ form: 'inline', paymentMethod: 'orange' });
  });

  it('is the only alias: other spellings and inherited names stay refused', () => {
    for (const given of ['Orange_Money', 'orangemoney', 'orange money', 'toString', '__proto__'])
      expect(canonicalPaymentMethod(given)).toBe(given);
    expect(
      createContactBody.safeParse({ name: 'A', paymentMethod: 'OrangeMoney', identifier: {} }).success,
    ).toBe(false);
  });
});
