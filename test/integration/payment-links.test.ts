import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import {
  attemptWrite,
  canReceivePayments,
  getPaymentLink,
  linkPaidWrite,
  listPaymentLinks,
  paymentLinkKey,
  setPaymentLinkActive,
} from '#shared/data/payment-link.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { PaymentLinkAlreadyUsed, PaymentLinkIsInvalid } from '#shared/errors/payment-links.ts';
import { createPaymentLinkFor } from '#shared/operations/payment-links.ts';
import { merchant } from '#test/support/fixtures.ts';

type Merchant = Awaited<ReturnType<typeof merchant>>;

const newLink = (m: Merchant, allowMultiplePayments = false) =>
  createPaymentLinkFor(m.caller, {
    storeId: m.store.id,
    title: 'Panier de légumes du jeudi',
    amountCents: 50_000,
    allowMultiplePayments,
  });

const claim = (link: Awaited<ReturnType<typeof newLink>>) =>
  transactWrite([attemptWrite(link, { paymentRequestId: randomUUID(), token: randomUUID() })]);

describe('switching a payment link off, against attempts', () => {
  it.each([
    ['single-use', false],
    ['reusable', true],
  ])('refuses the claim of a %s link switched off after the attempt read it', async (_kind, reusable) => {
    const m = await merchant();
    const read = await newLink(m, reusable);
    await setPaymentLinkActive(read, false);
    // The attempt still holds the link as it read it, active: only the claim's condition stops it.
    await expect(claim(read)).rejects.toBeInstanceOf(PaymentLinkIsInvalid);
    await setPaymentLinkActive(read, true);
    await expect(claim(read)).resolves.toBeUndefined();
  });

  it('refuses to switch on a single-use link paid after it was read, by its condition', async () => {
    const m = await merchant();
    const read = await newLink(m);
    await setPaymentLinkActive(read, false);
    await transactWrite([linkPaidWrite(m.business.id, read.id, randomUUID(), true)]);
    await expect(setPaymentLinkActive(read, true)).rejects.toBeInstanceOf(PaymentLinkAlreadyUsed);
    const now = await getPaymentLink(m.business.id, read.id);
    expect(now).toMatchObject({ active: false });
    expect(canReceivePayments(now as NonNullable<typeof now>)).toBe(false);
  });

  it('reads a link written before `active` existed as active, and lists it among the active ones', async () => {
    const m = await merchant();
    const link = await newLink(m);
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paymentLinkKey(m.business.id, link.id),
        UpdateExpression: 'REMOVE active',
      }),
    );
    const old = await getPaymentLink(m.business.id, link.id);
    expect(old?.active).toBe(true);
    expect(canReceivePayments(old as NonNullable<typeof old>)).toBe(true);
    expect((await listPaymentLinks(m.business.id, { active: true })).map((l) => l.id)).toEqual([link.id]);
    expect(await listPaymentLinks(m.business.id, { active: false })).toEqual([]);
    await expect(claim(link)).resolves.toBeUndefined();
  });
});
