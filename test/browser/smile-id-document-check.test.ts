import { randomInt, randomUUID } from 'node:crypto';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessKey } from '#shared/data/business.ts';
import { type SmileIdFake, startSmileIdFake } from '#test/fakes/smileid-fake.ts';
import { reviewScreens } from '#test/support/browser.ts';
import { DashboardBrowser } from '#test/support/dashboard.ts';
import { expectAccessibleWithin, phonesOfThisFile, shareSession } from '#test/support/dashboard-setup.ts';
import { fakeControl } from '#test/support/fake-control.ts';
import { type LocalHost, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';

/**
 * Smile ID's document + selfie check in Chromium (issue 34): a local host whose identity vendor is
 * Smile ID, pointed at its contract fake, whose stand-in of Smile ID's web script is the page's
 * (`SMILE_ID_WEB_SCRIPT_URL`). An owner who signs up with a Senegalese number, so whose store is in
 * Senegal (a country Smile ID looks up by no number on this host: `SMILE_ID_ID_TYPES` maps only
 * CI), opens the verification page, starts
 * the check, "captures" in the stand-in's frame, and the fake's signed callback raises the business
 * to level 1; a rejected one shows the reason; a forged callback changes nothing. On a 360 × 640
 * phone in French and a 1280 × 800 desktop in English, axe clean, no wider than the screen.
 */
let host: LocalHost;
let smileId: SmileIdFake;
let table: { client: DynamoDBClient; name: string };
const phones = phonesOfThisFile();
const control = fakeControl(() => smileId.url);

beforeAll(async () => {
  const partnerId = '085';
  const apiKey = randomUUID();
  smileId = await startSmileIdFake({ partnerId, apiKey, answerDelayMs: 300 });
  host = await startLocalHost(newDataDir(), {
    ...testHostEnv,
    IDENTITY_VENDOR: 'smileid',
    SMILE_ID_BASE_URL: `${smileId.url}/v1`,
    SMILE_ID_PARTNER_ID: partnerId,
    SMILE_ID_API_KEY: apiKey,
    SMILE_ID_WEB_SCRIPT_URL: smileId.webScriptUrl,
  });
  // This host's own table, read with a client of this file's (the run's shared host keeps the
  // process-wide one).
  table = {
    client: new DynamoDBClient({
      endpoint: host.config.endpoints.dynamodb,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    name: host.config.tableName,
  };
}, 180_000);

afterAll(async () => {
  table?.client.destroy();
  await host?.stop();
  await smileId?.close();
});

const words = {
  fr: {
    start: 'Commencer avec Smile ID',
    needs: 'Cette vérification a besoin de l’appareil photo',
    approved: 'Identité vérifiée',
    rejected: 'Smile ID n’a pas pu confirmer que la pièce est authentique et qu’elle est la vôtre',
  },
  en: {
    start: 'Start with Smile ID',
    needs: 'This check needs your phone’s or computer’s camera',
    approved: 'Identity verified',
    rejected: 'Smile ID could not confirm that the document is genuine and yours',
  },
};

/**
 * A new owner signed up on the dashboard with a Senegalese number, whose first store the sign-up
 * therefore puts in Senegal, and its open identity check's path.
 */
async function senegaleseOwner() {
  const browser = new DashboardBrowser(host.config.baseUrl);
  const phone = `+22177${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  const code = await browser.signInWith(phone);
  expect(code.location).toBe(`${host.config.baseUrl}/dashboard/sign-up`);
  const created = await browser.post('/dashboard/sign-up', {
    firstName: 'Awa',
    lastName: 'Ndiaye',
    businessName: 'Boutique Médina',
    activityId: 'commerce.boutique',
    storeName: 'Médina',
  });
  expect(created.status).toBe(303);
  const businessId = /data-business-id="([^"]+)"/.exec((await browser.get('/dashboard')).text)?.[1] ?? '';
  const started = await browser.post('/dashboard/verification', { csrf: await browser.csrfOf() });
  expect(started.status).toBe(303);
  return { browser, businessId, path: new URL(started.location ?? '').pathname };
}

const levelOf = async (businessId: string) => {
  const key = businessKey(businessId);
  const { Item } = await table.client.send(
    new GetItemCommand({
      TableName: table.name,
      Key: { pk: { S: key.pk }, sk: { S: key.sk } },
      ConsistentRead: true,
    }),
  );
  return Number(Item?.verificationLevel?.N);
};

/** Refused loads and scripts, as Chromium reports a Content-Security-Policy violation. */
function policyViolationsOf(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

/** From the verification page: start, then capture in the stand-in's frame; back on the page. */
async function captureOnPage(
  page: Page,
  owner: { browser: DashboardBrowser; path: string },
  language: 'fr' | 'en',
  width: number,
) {
  const t = words[language];
  await shareSession(page, owner.browser);
  await page.goto(`${host.config.baseUrl}${owner.path}`);
  await expect.poll(() => page.getByText(t.needs).isVisible()).toBe(true);
  await expectAccessibleWithin(page, width);
  await page.getByRole('button', { name: t.start }).click();
  await page.waitForURL(/\/document_check/);
  await page.locator('iframe[title="Smile ID"]').waitFor();
  await expectAccessibleWithin(page, width);
  const frame = page.frameLocator('iframe[title="Smile ID"]');
  await frame.getByRole('button', { name: 'Capture document and selfie' }).click();
  // onSuccess: back to the verification page, under way, then decided by the callback.
  await page.waitForURL(`${host.config.baseUrl}${owner.path}`);
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.locator('[data-status]').getAttribute('data-status');
      },
      { timeout: 30_000, interval: 500 },
    )
    .not.toBe('submitted');
}

describe('an owner whose store is in Senegal, checked by Smile ID’s document + selfie', () => {
  it('captures in Smile ID’s frame and reaches level 1 (phone, French)', async () => {
    const owner = await senegaleseOwner();
    const page = await phones.open({ viewport: reviewScreens.phone, locale: 'fr-SN' });
    const refused = policyViolationsOf(page);
    await captureOnPage(page, owner, 'fr', reviewScreens.phone.width);
    await expect.poll(() => page.getByText(words.fr.approved).isVisible()).toBe(true);
    await expectAccessibleWithin(page, reviewScreens.phone.width);
    expect(refused).toEqual([]);
    expect(await levelOf(owner.businessId)).toBe(1);
    // What Smile ID was asked: a web token for a Document Verification job of this business.
    const jobs = [...smileId.jobs.values()].filter((job) => job.partnerParams.user_id === owner.businessId);
    expect(jobs).toEqual([
      expect.objectContaining({ product: 'doc_verification', captured: true, resultCode: '0810' }),
    ]);
  });

  it('shows the reason the owner can act on when Smile ID rejects (desktop, English)', async () => {
    const owner = await senegaleseOwner();
    await control('/document_result', { user_id: owner.businessId, ResultCode: '0907' });
    const page = await phones.open({ viewport: reviewScreens.desktop, locale: 'en-GB' });
    await captureOnPage(page, owner, 'en', reviewScreens.desktop.width);
    await expect.poll(() => page.getByText(words.en.rejected).isVisible()).toBe(true);
    await expectAccessibleWithin(page, reviewScreens.desktop.width);
    expect(await levelOf(owner.businessId)).toBe(0);
  });

  it('allows Smile ID’s script on the capture page alone, and says without JavaScript what the check needs', async () => {
    const owner = await senegaleseOwner();
    const page = await owner.browser.get(owner.path);
    const scriptOrigin = new URL(smileId.webScriptUrl).origin;
    expect(page.headers.get('content-security-policy')).not.toContain(scriptOrigin);
    expect(page.text).toContain('<noscript>');
    const capture = await owner.browser.post(`${owner.path}/document_check`, {
      csrf: await owner.browser.csrfOf(owner.path),
    });
    expect(capture.status).toBe(200);
    const policy = capture.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(new RegExp(`script-src [^;]*${scriptOrigin}`));
    expect(policy).toContain(`frame-src ${scriptOrigin}`);
    expect(policy).toContain("default-src 'none'");
    expect(capture.text).toContain(`<script src="${smileId.webScriptUrl}"></script>`);
    expect(capture.text).toContain('<noscript>');
  });

  it('changes nothing on a forged callback', async () => {
    const owner = await senegaleseOwner();
    const capture = await owner.browser.post(`${owner.path}/document_check`, {
      csrf: await owner.browser.csrfOf(owner.path),
    });
    expect(capture.status).toBe(200);
    const [job] = [...smileId.jobs.values()].filter((one) => one.partnerParams.user_id === owner.businessId);
    const jobId = job?.partnerParams.job_id ?? '';
    await control('/callback', { job_id: jobId, forge: true, ResultCode: '0810' });
    expect(smileId.callbacksSent.at(-1)).toEqual({ jobId, status: 401 });
    const page = await owner.browser.get(owner.path);
    expect(page.text).toContain('data-status="submitted"');
    expect(await levelOf(owner.businessId)).toBe(0);
  });
});
