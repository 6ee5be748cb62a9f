import { randomUUID } from 'node:crypto';
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '#test/support/api-client.ts';
import { phoneRack } from '#test/support/browser.ts';
import { newOwner, smsCodeFor } from '#test/support/link-requests.ts';
import { admin } from '#test/support/local-host.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);
const linksPath = '/partner_api/service_providers/business_links';

let providerHeaders: Record<string, string>;
const phones = phoneRack();
const phone = phones.open;

beforeAll(async () => {
  const { businessId } = await admin(
    dataDir,
    'create-business',
    '--name',
    `Caisse Pro ${randomUUID().slice(0, 6)}`,
    '--service-provider',
  );
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId as string);
  providerHeaders = {
    'X-API-KEY-ID': keyId as string,
    'X-API-KEY': key as string,
    'content-type': 'application/json',
  };
});

afterAll(phones.closeAll);

/** A pending request to a new owner, its consent page's address and the code their phone got. */
async function pendingRequest() {
  const owner = await newOwner(dataDir, 'Boutique Awa');
  const created = await call(
    'POST',
    '/partner_api/service_providers/business_link_requests',
    providerHeaders,
    {
      phone: owner.phone,
    },
  );
  expect(created.status).toBe(200);
  const [request] = created.body;
  const code = await smsCodeFor(config.baseUrl, request.id);
  return { owner, request, code, url: `${config.baseUrl}/lr/${request.id}` };
}

const statusOf = async (id: string) =>
  (await call('GET', `/partner_api/service_providers/business_link_requests/${id}`, providerHeaders)).body
    .status;
const linkedMerchants = async () =>
  (await call('GET', linksPath, providerHeaders)).body.map(
    (link: { merchantBusinessId: string }) => link.merchantBusinessId,
  );

describe('the owner’s consent page', () => {
  it('refuses a wrong code, then approves with the code from the SMS (French)', async () => {
    const { owner, request, code, url } = await pendingRequest();
    const page = await phone();
    await page.goto(url);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr');
    await expect(page.getByTestId('asks').textContent()).resolves.toContain(
      'demande à gérer votre entreprise',
    );
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByLabel('Code reçu par SMS').fill(wrong);
    await page.getByRole('button', { name: 'Autoriser' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Code incorrect. Il vous reste 4 essais.',
    );
    expect(await statusOf(request.id)).toBe('pending');

    await page.getByLabel('Code reçu par SMS').fill(code);
    await page.getByRole('button', { name: 'Autoriser' }).click();
    await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('approved');
    await expect(page.locator('main').textContent()).resolves.toContain('Accès accordé');
    expect(await statusOf(request.id)).toBe('approved');
    expect(await linkedMerchants()).toContain(owner.businessId);

    // A second answer changes nothing: the page shows the outcome.
    await page.goto(url);
    await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('approved');
  });

  it('declines, in English, without linking', async () => {
    const { owner, request, code, url } = await pendingRequest();
    const page = await phone({ locale: 'en-GB' });
    await page.goto(url);
    await page.getByLabel('Code received by SMS').fill(code);
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect(page.locator('main').textContent()).resolves.toContain('Request declined');
    expect(await statusOf(request.id)).toBe('declined');
    expect(await linkedMerchants()).not.toContain(owner.businessId);
  });

  it('declines the request after five wrong codes and offers no more tries', async () => {
    const { owner, request, code, url } = await pendingRequest();
    const page = await phone();
    await page.goto(url);
    const wrong = code === '999999' ? '888888' : '999999';
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel('Code reçu par SMS').fill(wrong);
      await page.getByRole('button', { name: 'Autoriser' }).click();
      await page.waitForLoadState();
    }
    await expect(page.locator('main').textContent()).resolves.toContain('Trop de codes incorrects');
    expect(await statusOf(request.id)).toBe('declined');
    await page.goto(url);
    expect(await page.getByLabel('Code reçu par SMS').count()).toBe(0);
    expect(await linkedMerchants()).not.toContain(owner.businessId);
  });

  it('shows an expired request as expired and takes no answer', async () => {
    const { request, url } = await pendingRequest();
    // Seven days cannot pass in a test: the request's deadline is moved into the past instead.
    await new DynamoDBClient({
      endpoint: config.endpoints.dynamodb,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }).send(
      new UpdateItemCommand({
        TableName: config.tableName,
        Key: { pk: { S: `LINKREQ#${request.id}` }, sk: { S: 'LINKREQ' } },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': { S: new Date(Date.now() - 1000).toISOString() } },
      }),
    );
    const page = await phone();
    await page.goto(url);
    await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('expired');
    await expect(page.locator('main').textContent()).resolves.toContain('Cette demande a expiré');
    expect(await statusOf(request.id)).toBe('expired');
  });
});
