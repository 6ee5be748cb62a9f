import { createHmac, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { readProviderReference } from '#test/support/provider-reference.ts';

const { config, dataDir } = inject('localHost');
const { baseUrl } = config;
const send = apiClient(baseUrl);
// Any sandbox number but the special ones: collections succeed, and payouts to it are paid.
const payer = '+2250700000017';

let headers: Record<string, string> = {};
let storeId = '';
beforeAll(async () => {
  const { businessId } = await admin<{ businessId: string }>(
    dataDir,
    'create-business',
    '--name',
    'Maquis Double',
  );
  ({ storeId } = await admin(
    dataDir,
    'create-store',
    '--business',
    businessId,
    '--name',
    'Maquis Treichville',
  ));
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId);
  headers = {
    'X-API-KEY-ID': keyId as string,
    'X-API-KEY': key as string,
    'content-type': 'application/json',
  };
});

const sign = (body: string) => createHmac('sha256', config.sandbox.providerSecret).update(body).digest('hex');

async function providerReports(provider: string, paymentRequestId: string, providerReference: string) {
  const body = JSON.stringify({
    callbackId: randomUUID(),
    provider,
    providerReference,
    paymentRequestId,
    outcome: 'success',
    payerPhone: payer,
  });
  const { status, body: answer } = await send(
    'POST',
    `/provider_callbacks/${provider}`,
    {
      'content-type': 'application/json',
      'x-sandbox-signature': sign(body),
    },
    body,
  );
  expect(status).toBe(200);
  return answer.result as string;
}

/** The payer submits the hosted page's form: the service answers with the provider's page. */
async function payWith(id: string, paymentMethod: string) {
  const response = await fetch(`${baseUrl}/payment/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ paymentMethod, payerPhone: payer }).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return readProviderReference(config, id);
}

interface OrphanView {
  open: { id: string; status: string }[];
  ended: { id: string; status: string; paymentRequestId: string; amountCents: number }[];
  owedToPayersCents: number;
}

describe('a payer who pays one request with two providers', () => {
  it('is told on the page, charged once in the books, and refunded the other payment once', async () => {
    const created = await send(
      'POST',
      '/partner_api/payment_requests',
      headers,
      redirectRequestBody(storeId, { amountCents: 25_000 }),
    );
    expect(created.status).toBe(200);
    const id = created.body.id as string;

    const first = await payWith(id, 'wave');
    // Back on the page: the first payment may still go through, and the page says so.
    const page = await (await fetch(`${baseUrl}/payment/${id}`)).text();
    expect(page).toContain('id="earlier-collection"');
    const second = await payWith(id, 'orange');
    expect(second).not.toBe(first);

    // Both providers report success, reordered and duplicated.
    expect(await providerReports('wave', id, first)).toBe('orphan_collection');
    expect(await providerReports('orange', id, second)).toBe('completed');
    expect(await providerReports('wave', id, first)).toBe('orphan_collection');
    expect(await providerReports('orange', id, second)).toBe('already_completed');

    const request = await send('GET', `/partner_api/payment_requests/${id}`, headers);
    expect(request.body.status).toBe('success');
    expect(request.body.transaction.amount).toEqual({ amount: 25_000, currency: 'XOF' });

    // The sandbox pays the refund out and calls back (after its delay): refunded, once.
    const deadline = Date.now() + 30_000;
    let view: OrphanView;
    for (;;) {
      view = await admin<OrphanView>(dataDir, 'orphan-collections');
      const mine = view.ended.find((orphan) => orphan.paymentRequestId === id);
      if (mine || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const mine = [...view.open, ...view.ended].filter(
      (orphan) => (orphan as { paymentRequestId?: string }).paymentRequestId === id,
    );
    expect(mine).toEqual([expect.objectContaining({ status: 'refunded', amountCents: 25_000 })]);
    const audit = await admin<{ ok: boolean; sumOfAllPostings: number }>(dataDir, 'audit');
    expect(audit.ok).toBe(true);
    expect(audit.sumOfAllPostings).toBe(0);
  });
});
