import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import { verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { openPhone, type PhoneBrowser } from '#test/support/browser.ts';
import { newDashboardPhone, nextCodeOf, signInCodesOf } from '#test/support/dashboard.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * A shop owner's developer work on the dashboard, in Chromium: on a small phone in French, sign up,
 * make a key (copied with the button), call the API with it, revoke it and see 401; set the
 * webhook to a receiver, send a test event the receiver verifies; find all of it in the audit log.
 * Then on a desktop in English, the same pages. Every page: no serious accessibility violation,
 * nothing wider than the phone's screen.
 */
const { config } = inject('localHost');
const baseUrl = config.baseUrl;
const opened: PhoneBrowser[] = [];
let receiver: WebhookReceiver;
const owner = { phone: newDashboardPhone(), businessId: '' };

beforeAll(async () => {
  useLocalAws(config.endpoints, config.tableName);
  receiver = await startWebhookReceiver(() => 200, false);
});
afterAll(async () => {
  await Promise.all(opened.map((browser) => browser.close()));
  await receiver?.close();
});

async function open(viewport: { width: number; height: number }, locale: string): Promise<Page> {
  const browser = await openPhone({ viewport, locale });
  opened.push(browser);
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  return browser.page;
}

async function checkPage(page: Page, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

async function grantApiAccess(businessId: string) {
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${businessId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET apiAccessEnabled = :on, verificationLevel = :one',
      ExpressionAttributeValues: { ':on': true, ':one': 1 },
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 2100)); // the local host caches a business 2 s
}

const callStores = (keyId: string, secret: string) =>
  fetch(`${baseUrl}/partner_api/stores`, { headers: { 'X-API-KEY-ID': keyId, 'X-API-KEY': secret } });

describe('keys, webhooks and the audit log on the dashboard', () => {
  it('on a 360 × 640 phone in French: a key made, used, revoked; a test event verified; all in the audit log', async () => {
    const page = await open({ width: 360, height: 640 }, 'fr-CI');
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Numéro de téléphone').fill(owner.phone);
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/code`);
    await page.getByLabel('Code à 6 chiffres').fill(await nextCodeOf(baseUrl, owner.phone, 0));
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-up`);
    await page.getByLabel('Votre prénom').fill('Awa');
    await page.getByLabel('Votre nom').fill('Koné');
    await page.getByLabel('Nom de l’entreprise').fill('Boutique Awa');
    await page.getByLabel('Activité').selectOption('commerce.boutique');
    await page.getByLabel('Nom de votre premier point de vente').fill('Cocody');
    await page.getByRole('button', { name: 'Créer mon entreprise' }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    owner.businessId = (await page.getByTestId('business-name').getAttribute('data-business-id')) ?? '';

    // The key: made on the page, its id and secret shown once, copied with the button.
    await page.getByRole('link', { name: 'Clés d’API' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/api-keys`);
    await checkPage(page, 360);
    await page.getByLabel('Nom de la clé').fill('Site web');
    await page.getByRole('button', { name: 'Créer la clé' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Clé créée');
    await checkPage(page, 360);
    const keyId = await page.getByLabel('Identifiant de la clé', { exact: true }).inputValue();
    const secret = await page.getByLabel('Clé secrète', { exact: true }).inputValue();
    await expect(page.getByLabel('Clé secrète', { exact: true }).getAttribute('readonly')).resolves.toBe('');
    // Shown only where the script ran (its hash in the page's policy): then it copies, and says so.
    await page.getByRole('button', { name: 'Copier (Clé secrète)' }).click();
    await page.locator('button[data-copy="key-secret"]', { hasText: 'Copié' }).waitFor({ timeout: 5000 });
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(secret);

    await grantApiAccess(owner.businessId);
    expect((await callStores(keyId, secret)).status).toBe(200);

    await page.getByRole('link', { name: 'Retour aux clés' }).click();
    await page.getByRole('link', { name: 'Révoquer la clé « Site web »' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Révoquer cette clé ?');
    await checkPage(page, 360);
    await page.getByRole('button', { name: 'Oui, révoquer la clé' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/api-keys`);
    expect((await callStores(keyId, secret)).status).toBe(401);
    await expect(page.getByTestId('api-keys').textContent()).resolves.toContain('Révoquée le');

    // The webhook: to the receiver, a test event it verifies with the secret shown once.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/webhooks`);
    await checkPage(page, 360);
    await page.getByLabel('Adresse de réception (URL)').fill(receiver.url);
    await page.getByRole('button', { name: 'Créer l’abonnement' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Abonnement créé');
    await checkPage(page, 360);
    const webhookSecret = await page.getByLabel('Clé secrète', { exact: true }).inputValue();
    await page.getByRole('link', { name: 'Retour aux webhooks' }).click();
    await page.getByRole('button', { name: 'Envoyer un événement de test' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/webhooks`);
    const [test] = await receiver.waitFor(1, 20_000);
    expect(test?.headers['svc-event']).toBe('WEBHOOK_TEST');
    expect(
      verifyWebhookSignature(test?.body ?? '', test?.headers['svc-signature'] as string, webhookSecret),
    ).toBe(true);
    await page.reload();
    await expect(page.getByTestId('deliveries').textContent()).resolves.toContain('Livré');
    await checkPage(page, 360);

    await page.getByRole('link', { name: 'Journal d’activité' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/audit`);
    await checkPage(page, 360);
    const log = (await page.getByTestId('audit-entries').textContent()) ?? '';
    for (const action of [
      'Connexion',
      'Clé d’API créée',
      'Clé d’API révoquée',
      'Webhook créé',
      'Événement de test envoyé',
    ])
      expect(log).toContain(action);
    await page.getByLabel('Action').selectOption('api_key_revoked');
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await expect(page.getByTestId('audit-entries').locator('li').count()).resolves.toBe(1);
  });

  it('on a 1280 × 800 desktop in English: the same pages, and a new key labelled Key ID and Secret', async () => {
    const page = await open({ width: 1280, height: 800 }, 'en-GB');
    const had = (await signInCodesOf(baseUrl, owner.phone)).length;
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await page.getByLabel('Phone number').fill(owner.phone);
    await page.getByRole('button', { name: 'Get a code' }).click();
    await page.getByLabel('6-digit code').fill(await nextCodeOf(baseUrl, owner.phone, had));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);

    await page.getByRole('link', { name: 'API keys' }).click();
    await checkPage(page, 1280);
    await page.getByLabel('Key name').fill('Till <1>');
    await page.getByRole('radio', { name: /^Platform, one point of sale/ }).check();
    await page.getByLabel('Point of sale', { exact: true }).selectOption({ label: 'Cocody' });
    await page.getByRole('button', { name: 'Create the key' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Key created');
    await checkPage(page, 1280);
    const keyId = await page.getByLabel('Key ID', { exact: true }).inputValue();
    const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect((await callStores(keyId, secret)).status).toBe(200);

    await page.getByRole('link', { name: 'Back to the keys' }).click();
    await expect(page.getByTestId('api-keys').textContent()).resolves.toContain('Till <1>');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await checkPage(page, 1280);
    await expect(page.getByTestId('deliveries').textContent()).resolves.toContain('Delivered');
    await page.getByRole('link', { name: 'Activity log' }).click();
    await checkPage(page, 1280);
    await expect(page.getByTestId('audit-entries').textContent()).resolves.toContain('Signed in');
  });
});
