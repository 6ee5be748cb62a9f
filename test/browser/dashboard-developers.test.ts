import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';
import { backgroundWorkMs } from '#test/support/dashboard.ts';
import {
  expectAccessibleWithin,
  phonesOfThisFile,
  signInOnPage,
  signUpOnPage,
  theLocalHost,
  untilTheApiLetsIn,
  verifyFirstLevel,
} from '#test/support/dashboard-setup.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * A shop owner's developer work on the dashboard, in Chromium: on a small phone in French, sign up,
 * make a key (copied with the button), call the API with it, revoke it and see 401; set the
 * webhook to a receiver, send a test event the receiver verifies; find all of it in the audit log.
 * Then on a desktop in English, the same pages. Every page: no serious accessibility violation,
 * nothing wider than the phone's screen.
 */
const { baseUrl } = theLocalHost();
const phones = phonesOfThisFile();
let receiver: WebhookReceiver;
/** The owner the phone's test signs up, whom the desktop's test signs in again. */
let owner: { phone: string; businessId: string };

beforeAll(async () => {
  receiver = await startWebhookReceiver(() => 200, false);
});
afterAll(async () => {
  await receiver?.close();
});

/** A screen whose page may read and write the clipboard, as the copy buttons need. */
const open = (viewport: { width: number; height: number }, locale: string) =>
  phones.open({ viewport, locale, permissions: ['clipboard-read', 'clipboard-write'] });

const keyHeaders = (keyId: string, secret: string) => ({ 'X-API-KEY-ID': keyId, 'X-API-KEY': secret });
const callStores = (keyId: string, secret: string) =>
  fetch(`${baseUrl}/partner_api/stores`, { headers: keyHeaders(keyId, secret) });

describe('keys, webhooks and the audit log on the dashboard', () => {
  it('on a 360 × 640 phone in French: a key made, used, revoked; a test event verified; all in the audit log', async () => {
    const page = await open({ width: 360, height: 640 }, 'fr-CI');
    owner = await signUpOnPage(page, baseUrl, 'fr');

    // The key: made on the page, its id and secret shown once, copied with the button.
    await page.getByRole('link', { name: 'Clés d’API' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/api-keys`);
    await expectAccessibleWithin(page, 360);
    await page.getByLabel('Nom de la clé').fill('Site web');
    await page.getByRole('button', { name: 'Créer la clé' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Clé créée');
    await expectAccessibleWithin(page, 360);
    const keyId = await page.getByLabel('Identifiant de la clé', { exact: true }).inputValue();
    const secret = await page.getByLabel('Clé secrète', { exact: true }).inputValue();
    await expect(page.getByLabel('Clé secrète', { exact: true }).getAttribute('readonly')).resolves.toBe('');
    // Shown only where the script ran (its hash in the page's policy): then it copies, and says so.
    await page.getByRole('button', { name: 'Copier (Clé secrète)' }).click();
    await page.locator('button[data-copy="key-secret"]', { hasText: 'Copié' }).waitFor();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(secret);
    // The page is the GET after the post: a reload shows the secret no more and makes no second key.
    expect(page.url()).toBe(`${baseUrl}/dashboard/api-keys?created=${keyId}`);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Clés d’API');
    await expect(page.getByTestId('notice').textContent()).resolves.toContain(
      'La clé « Site web » a été créée',
    );
    await expect(page.locator('[data-key-id]').count()).resolves.toBe(1);
    await expect(page.content()).resolves.not.toContain(secret);
    await expectAccessibleWithin(page, 360);

    await verifyFirstLevel(owner.businessId);
    await untilTheApiLetsIn(baseUrl, keyHeaders(keyId, secret));

    await page.getByRole('link', { name: 'Révoquer la clé « Site web »' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Révoquer cette clé ?');
    await expectAccessibleWithin(page, 360);
    await page.getByRole('button', { name: 'Oui, révoquer la clé' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/api-keys?revoked=1`);
    await expect(page.getByTestId('notice').textContent()).resolves.toContain('La clé a été révoquée');
    expect((await callStores(keyId, secret)).status).toBe(401);
    await expect(page.getByTestId('api-keys').textContent()).resolves.toContain('Révoquée le');

    // The webhook: to the receiver, a test event it verifies with the secret shown once.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/webhooks`);
    await expectAccessibleWithin(page, 360);
    await page.getByLabel('Adresse de réception (URL)').fill(receiver.url);
    await page.getByRole('button', { name: 'Créer l’abonnement' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Abonnement créé');
    await expectAccessibleWithin(page, 360);
    const webhookSecret = await page.getByLabel('Clé secrète', { exact: true }).inputValue();
    await page.getByRole('link', { name: 'Retour aux webhooks' }).click();
    await page.getByRole('button', { name: 'Envoyer un événement de test' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/webhooks`);
    const [test] = await receiver.waitFor(1, backgroundWorkMs);
    expect(test?.headers['svc-event']).toBe('WEBHOOK_TEST');
    expect(
      verifyWebhookSignature(test?.body ?? '', test?.headers['svc-signature'] as string, webhookSecret),
    ).toBe(true);
    await page.reload();
    await expect(page.getByTestId('deliveries').textContent()).resolves.toContain('Livré');
    await expectAccessibleWithin(page, 360);

    await page.getByRole('link', { name: 'Journal d’activité' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/audit`);
    await expectAccessibleWithin(page, 360);
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
    await expect(page.getByTestId('audit-entries').locator('tbody tr').count()).resolves.toBe(1);
  });

  it('on a 1280 × 800 desktop in English: the same pages, and a new key labelled Key ID and Secret', async () => {
    const page = await open({ width: 1280, height: 800 }, 'en-GB');
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await signInOnPage(page, owner.phone, 'en');
    await page.waitForURL(`${baseUrl}/dashboard`);

    await page.getByRole('link', { name: 'API keys' }).click();
    await expectAccessibleWithin(page, 1280);
    await page.getByLabel('Key name').fill('Till <1>');
    await page.getByRole('radio', { name: /^Platform, one point of sale/ }).check();
    await page.getByLabel('Point of sale', { exact: true }).selectOption({ label: 'Cocody' });
    await page.getByRole('button', { name: 'Create the key' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Key created');
    await expectAccessibleWithin(page, 1280);
    const keyId = await page.getByLabel('Key ID', { exact: true }).inputValue();
    const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect((await callStores(keyId, secret)).status).toBe(200);

    await page.getByRole('link', { name: 'Back to the keys' }).click();
    await expect(page.getByTestId('api-keys').textContent()).resolves.toContain('Till <1>');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expectAccessibleWithin(page, 1280);
    await expect(page.getByTestId('deliveries').textContent()).resolves.toContain('Delivered');
    await page.getByRole('link', { name: 'Activity log' }).click();
    await expectAccessibleWithin(page, 1280);
    await expect(page.getByTestId('audit-entries').textContent()).resolves.toContain('Signed in');
  });
});
