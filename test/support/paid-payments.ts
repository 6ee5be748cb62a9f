import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { LocalConfig } from '#infra/local/local-config.ts';
import { apiClient } from '#test/support/api-client.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { readProviderReference } from '#test/support/provider-reference.ts';

/** A redirect payment request's body, for `paymentMethod` (Wave by default), 1 500 F CFA unless told. */
export const paymentRequestBody = (storeId: string, paymentMethod = 'wave', amountCents = 150_000) =>
  redirectRequestBody(storeId, { paymentMethod, amountCents });

/** The sandbox's number whose collection it never calls back about. */
const silentPayer = '+2250700000004';

/** Numbers the sandbox does not let pay by itself (declined, no funds, silent, refused). */
const unpaying = /0[2-5]$/;

/**
 * A payment request of the store, paid on the local host's sandbox by `payerPhone` through
 * `paymentMethod`: the sandbox payer approves it, and its callback completes it. A number the
 * sandbox would not let pay (`…04`, whose refunds it then leaves pending for the sandbox helpers;
 * `…05`, whose refunds it refuses) pays all the same: the collection is approved silently and
 * reported paid, by that payer, in a callback signed here as the provider would send it.
 * Answers the request's id.
 */
export async function paidPayment(
  config: LocalConfig,
  headers: Record<string, string>,
  input: { storeId: string; amountCents: number; paymentMethod: string; payerPhone: string },
): Promise<string> {
  const call = apiClient(config.baseUrl);
  const created = await call(
    'POST',
    '/partner_api/payment_requests',
    headers,
    paymentRequestBody(input.storeId, input.paymentMethod, input.amountCents),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.id as string;
  const approved = await call('POST', `/sandbox/payment_requests/${id}/approve`, headers, {
    payerPhone: unpaying.test(input.payerPhone) ? silentPayer : input.payerPhone,
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  if (!unpaying.test(input.payerPhone)) {
    expect(approved.body.status).toBe('success');
    return id;
  }
  const body = JSON.stringify({
    callbackId: randomUUID(),
    provider: input.paymentMethod,
    providerReference: await readProviderReference(config, id),
    paymentRequestId: id,
    outcome: 'success',
    payerPhone: input.payerPhone,
  });
  const reported = await call(
    'POST',
    `/provider_callbacks/${input.paymentMethod}`,
    {
      'content-type': 'application/json',
      'x-sandbox-signature': createHmac('sha256', config.sandbox.providerSecret).update(body).digest('hex'),
    },
    body,
  );
  expect(reported.body).toEqual({ received: true, result: 'completed' });
  return id;
}

/** A form posted on a payer's page, as the payer's browser posts it: no session, no redirect followed. */
export const postAsPayer = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

export const orangePayer = { paymentMethod: 'orange', payerPhone: '+2250700000001' };

/** A payer through a payment link's page, approving on the sandbox provider's page. */
export async function payThroughLink(baseUrl: string, linkId: string) {
  const started = await postAsPayer(`${baseUrl}/pl/${linkId}`, orangePayer);
  expect(started.status, await started.clone().text()).toBe(303);
  const checkout = started.headers.get('location') as string;
  const answered = await postAsPayer(checkout, { action: 'approve', payerPhone: orangePayer.payerPhone });
  expect(answered.status).toBe(303);
}
