import { describe, expect, it } from 'vitest';
import { adminWebhookUrlPolicy, webhookSettings } from '#infra/admin-webhook.ts';

describe('admin set-webhook against a deployed stage (--stage)', () => {
  const policy = adminWebhookUrlPolicy('dev');

  it('is the strict policy whatever the admin process environment says', () => {
    expect(policy).toEqual({ requireHttps: true, allowLoopback: false });
  });

  it.each([
    ['http://hooks.example.com/svc', 'must use https'],
    ['https://localhost/svc', 'must not point at localhost'],
    ['https://127.0.0.1/svc', 'loopback'],
    ['https://10.0.0.8/svc', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://[fd00:ec2::254]/', 'private'],
  ])('refuses %s, saying why', (url, reason) => {
    const result = webhookSettings({ url }, policy);
    expect(result).toEqual({ refused: expect.stringContaining(reason) });
    expect((result as { refused: string }).refused).toContain(url);
  });

  it('accepts a public https address, with TRANSACTION_COMPLETED by default', () => {
    expect(webhookSettings({ url: 'https://hooks.example.com/svc' }, policy)).toEqual({
      url: 'https://hooks.example.com/svc',
      events: ['TRANSACTION_COMPLETED'],
    });
  });
});

describe('admin set-webhook on the local host', () => {
  const policy = adminWebhookUrlPolicy(undefined);

  it('lets a receiver on the same laptop take webhooks over plain http', () => {
    expect(policy).toEqual({ requireHttps: false, allowLoopback: true });
    expect(webhookSettings({ url: 'http://127.0.0.1:4000/hooks' }, policy)).toMatchObject({
      url: 'http://127.0.0.1:4000/hooks',
    });
  });

  it('still refuses private addresses', () => {
    expect(webhookSettings({ url: 'http://192.168.1.20/hooks' }, policy)).toHaveProperty('refused');
  });
});

describe('admin set-webhook --events', () => {
  const policy = adminWebhookUrlPolicy(undefined);
  const url = 'https://hooks.example.com/svc';

  it('takes a comma-separated list of known names, once each', () => {
    expect(
      webhookSettings({ url, events: 'ESCROW_HELD, TRANSACTION_COMPLETED,ESCROW_HELD' }, policy),
    ).toEqual({
      url,
      events: ['ESCROW_HELD', 'TRANSACTION_COMPLETED'],
    });
  });

  it('names the unknown ones', () => {
    expect(webhookSettings({ url, events: 'TRANSACTION_COMPLETED,PAYMENT_DONE' }, policy)).toEqual({
      refused: expect.stringContaining('unknown PAYMENT_DONE'),
    });
  });

  it('refuses an empty list', () => {
    expect(webhookSettings({ url, events: ' , ' }, policy)).toHaveProperty('refused');
  });
});
