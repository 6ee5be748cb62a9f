import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderReceiverPage } from '#infra/local/demo-receiver-page.ts';
import { demoEnv, firstPaymentSteps, shellQuoted } from '#infra/local/first-payment.ts';
import { renderStartPage, servesStartPage } from '#infra/local/start-page.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';

const execFileAsync = promisify(execFile);

const hostile = '<script>alert(1)</script>';
const demo = {
  businessId: 'b"iz',
  storeId: `st'ore`,
  deviceId: hostile,
  apiKeyId: '0f3c1b7e-3a4f-4d8e-9b1a-2c3d4e5f6a7b',
  apiKey: "ppsk_it's-$(not run)",
};

describe('the start page of the local host', () => {
  it('takes GET and HEAD of / only, and only while no route of the table is there', () => {
    expect(endpointEntries.some(([, route]) => route.path === '/')).toBe(false);
    expect(servesStartPage('GET', '/')).toBe(true);
    expect(servesStartPage('HEAD', '/')).toBe(true);
    expect(servesStartPage('POST', '/')).toBe(false);
    expect(servesStartPage('GET', '/partner_api/stores')).toBe(false);
  });

  it('escapes every value it shows', () => {
    for (const language of ['fr', 'en'] as const) {
      const page = renderStartPage(
        {
          baseUrl: 'http://localhost:3000',
          demo,
          dataDir: `/tmp/${hostile}`,
          paths: {
            receiver: '/__local/webhooks',
            smsInbox: '/__local/sms',
            soundbox: `/__local/soundbox/${encodeURIComponent(hostile)}`,
            broker: '/__local/broker',
          },
        },
        language,
      );
      expect(page).not.toContain('<script>');
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page).toContain('b&quot;iz');
    }
  });
});

describe('the demo receiver’s page', () => {
  it('escapes what a sender put in its headers and body', () => {
    const page = renderReceiverPage(
      [
        {
          receivedAt: '2026-11-23T10:00:00.000Z',
          event: hostile,
          signature: '"><img src=x onerror=alert(1)>',
          webhookVersion: null,
          verified: false,
          summary: 'refused: bad or missing signature',
          body: `{"id":"${hostile}"}`,
        },
      ],
      'en',
    );
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
    expect(page).toContain('Refused: bad or missing signature');
  });
});

describe('the first payment’s commands', () => {
  it('quote every value so that a shell reads it back unchanged', async () => {
    for (const value of [demo.apiKey, demo.storeId, hostile, "''", '$HOME `id`']) {
      const { stdout } = await execFileAsync('sh', ['-c', `printf %s ${shellQuoted(value)}`]);
      expect(stdout).toBe(value);
    }
    const env = demoEnv('http://localhost:3000', demo);
    const { stdout } = await execFileAsync('sh', [
      '-c',
      `${env}\nprintf '%s|%s|%s' "$KEY" "$STORE" "$DEVICE"`,
    ]);
    expect(stdout).toBe(`${demo.apiKey}|${demo.storeId}|${demo.deviceId}`);
  });

  it('carry the demo key and store in the create step and the receiver in the last', () => {
    const steps = firstPaymentSteps('http://localhost:3000', demo, '/__local/webhooks');
    expect(steps).toHaveLength(3);
    expect(steps[0]?.command).toContain(shellQuoted(`X-API-KEY: ${demo.apiKey}`));
    expect(steps[1]?.command).toContain('/sandbox/payment_requests/$PR/approve');
    expect(steps[2]?.command).toBe('curl -s http://localhost:3000/__local/webhooks');
  });
});
