import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoApi } from '#test/support/api-client.ts';
import { openPhone, type PhoneBrowser, screenshotDir } from '#test/support/browser.ts';

const { config } = inject('localHost');
const { baseUrl, demo } = config;
const api = demoApi(config);

let browser: PhoneBrowser;
beforeAll(async () => {
  // A counter's tablet, landscape.
  browser = await openPhone({ viewport: { width: 1024, height: 768 } });
});
afterAll(async () => {
  await browser.close();
});

describe('the soundbox simulator page', () => {
  it('shows the QR large with the amount and store, and speaks the announcement in French', async () => {
    const { page } = browser;
    // What the page asks the speech synthesizer to say, kept for the test (a headless browser has no voice).
    await page.addInitScript({
      content: `window.spoken = [];
        speechSynthesis.speak = (utterance) => {
          if (utterance.text) window.spoken.push({ text: utterance.text, lang: utterance.lang });
        };`,
    });
    await page.goto(`${baseUrl}/__local/soundbox/${demo.deviceId}`);
    const pageLog: string[] = [];
    page.on('console', (message) => pageLog.push(message.text()));
    page.on('pageerror', (error) => pageLog.push(error.message));
    await expect
      .poll(() => page.locator('#status').textContent(), { timeout: 15_000, message: pageLog.join('\n') })
      .toBe('En ligne');
    await expect.poll(() => page.locator('#store').textContent()).toContain(demo.deviceId);
    await page.locator('#sound').click();

    const created = await api('POST', '/partner_api/payment_requests', {
      storeId: demo.storeId,
      amountCents: 150_000,
      currency: 'XOF',
      reference: `counter-${randomUUID()}`,
      paymentDetails: {
        type: 'soundbox',
        data: {
          paymentMethod: 'orange',
          deviceId: demo.deviceId,
          successUrl: 'https://a.example/ok',
          errorUrl: 'https://a.example/ko',
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const display = page.locator(`#display[data-payment-request-id="${created.body.id}"]`);
    await display.waitFor({ state: 'visible' });
    expect((await page.locator('#amount').textContent())?.replace(/\s+/g, ' ')).toBe('1 500 F CFA');
    // Which app scans it, and until when it is shown.
    expect(await page.locator('#apps').textContent()).toBe(
      'Scannez avec l’application Orange Money ou l’appareil photo du téléphone',
    );
    expect(await page.locator('#expires').textContent()).toMatch(/^Valable jusqu’à \d{2}:\d{2}$/);
    expect(await page.locator('#store').textContent()).toContain('Demo Boutique Plateau');

    // The QR is large on the screen, and what a camera reads from it is the provider's checkout page.
    const box = await page.locator('#qr').boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    const qr = await page.locator('#qr').getAttribute('data-qr');
    expect(qr).toMatch(/\/sandbox\/provider\/checkout\//);
    // The image as a camera would see it: drawn on a white canvas, read back pixel by pixel.
    const pixels = (await page.evaluate(`(async () => {
      const image = document.getElementById('qr');
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = 400;
      canvas.height = 400;
      const context = canvas.getContext('2d');
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 400, 400);
      context.drawImage(image, 0, 0, 400, 400);
      return Array.from(context.getImageData(0, 0, 400, 400).data);
    })()`)) as number[];
    expect(jsQR(Uint8ClampedArray.from(pixels), 400, 400)?.data).toBe(qr);
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, 'soundbox-qr.png') });

    const approved = await api('POST', `/sandbox/payment_requests/${created.body.id}/approve`, {});
    expect(approved.status).toBe(200);
    const announcement = page.locator('#announcement');
    await expect
      .poll(async () => (await announcement.textContent())?.replace(/\s+/g, ' '), { timeout: 15_000 })
      .toBe('Paiement reçu : 1 500 F CFA');
    expect(await announcement.isVisible()).toBe(true);
    // The amount never breaks across lines: one line high, whatever the screen.
    const amountLine = await announcement.locator('.nowrap').boundingBox();
    expect(amountLine?.height).toBeLessThan(50);
    expect(await announcement.locator('.nowrap').textContent()).toBe('1\u202f500\u00a0F\u00a0CFA');
    expect(await page.evaluate('window.spoken')).toContainEqual({
      text: 'Paiement reçu : 1 500 francs CFA',
      lang: 'fr-FR',
    });
    await display.waitFor({ state: 'hidden' });
    await page.screenshot({ path: join(screenshotDir, 'soundbox-announcement.png') });
  });
});
