import { afterEach, describe, expect, it, vi } from 'vitest';
import { refusedAddress, refusedWebhookUrl, webhookUrlPolicy } from '#shared/domain/webhook-url.ts';

const stage = { requireHttps: true, allowLoopback: false };
const local = { requireHttps: false, allowLoopback: true };

describe('webhook URLs on a deployed stage', () => {
  it.each([
    'https://hooks.example.com/svc',
    'https://hooks.example.com:8443/svc?shop=42',
    'https://example.com./svc',
    'https://8.8.8.8/svc',
    'https://[2606:4700:4700::1111]/svc',
    'https://[::ffff:8.8.8.8]/svc',
  ])('accepts %s', (url) => {
    expect(refusedWebhookUrl(url, stage)).toBeUndefined();
  });

  it('requires https', () => {
    expect(refusedWebhookUrl('http://hooks.example.com/svc', stage)).toBe('must use https');
    expect(refusedWebhookUrl('ftp://hooks.example.com/svc', stage)).toBe('must use https');
  });

  it('refuses what is not an absolute URL, credentials, and single-label hosts', () => {
    expect(refusedWebhookUrl('/svc', stage)).toBe('must be an absolute URL');
    expect(refusedWebhookUrl('https://user:pw@hooks.example.com/', stage)).toBe('must not carry credentials');
    expect(refusedWebhookUrl('https://intranet/svc', stage)).toBe('must name a public host');
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://127.1/', 'loopback'],
    ['https://2130706433/', 'loopback'],
    ['https://0x7f000001/', 'loopback'],
    ['https://[::1]/', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://10.1.2.3/', 'private'],
    ['https://172.16.0.1/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://100.64.0.1/', 'private'],
    ['https://0.0.0.0/', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://[fd00:ec2::254]/latest/meta-data/', 'private'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[fec0::1]/', 'private'],
    ['https://[::]/', 'reserved'],
    ['https://[::127.0.0.1]/', 'reserved'],
    ['https://[::ffff:10.0.0.1]/', 'private'],
    ['https://[::ffff:169.254.169.254]/', 'link-local'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'reserved'],
    ['https://[ff02::1]/', 'reserved'],
    ['https://[2002:a00:1::1]/', 'reserved'],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'reserved'],
  ])('refuses %s (%s)', (url, kind) => {
    expect(refusedWebhookUrl(url, stage)).toContain(kind);
  });

  it.each([
    'https://localhost/',
    'https://LOCALHOST:3000/',
    'https://localhost./',
    'https://shop.localhost/',
  ])('refuses %s', (url) => {
    expect(refusedWebhookUrl(url, stage)).toBe('must not point at localhost');
  });
});

describe('addresses given by DNS at delivery', () => {
  it('judges an IPv4-mapped IPv6 address, dotted or not, as the IPv4 address it carries', () => {
    expect(refusedAddress('::ffff:127.0.0.1', stage)).toContain('loopback');
    expect(refusedAddress('::ffff:7f00:1', stage)).toContain('loopback');
    expect(refusedAddress('::ffff:10.0.0.1', stage)).toContain('private');
    expect(refusedAddress('::ffff:8.8.8.8', stage)).toBeUndefined();
  });

  it('refuses what is not an address', () => {
    expect(refusedAddress('hooks.example.com', stage)).toContain('not an IP address');
  });
});

describe('webhook URLs on the local host', () => {
  it.each([
    'http://localhost:4000/hooks',
    'http://127.0.0.1:4000/hooks',
    'http://[::1]:4000/hooks',
    'https://localhost/hooks',
  ])('accepts loopback, plain http included: %s', (url) => {
    expect(refusedWebhookUrl(url, local)).toBeUndefined();
  });

  it('still refuses private, link-local and metadata addresses', () => {
    expect(refusedWebhookUrl('http://10.0.0.5/hooks', local)).toContain('private');
    expect(refusedWebhookUrl('http://169.254.169.254/latest/meta-data/', local)).toContain('link-local');
    expect(refusedWebhookUrl('http://[fd00:ec2::254]/', local)).toContain('private');
  });
});

describe('the policy from the environment', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is the strict one unless WEBHOOKS_ALLOW_LOOPBACK is exactly true', () => {
    vi.stubEnv('WEBHOOKS_ALLOW_LOOPBACK', '');
    expect(webhookUrlPolicy()).toEqual(stage);
    vi.stubEnv('WEBHOOKS_ALLOW_LOOPBACK', '1');
    expect(webhookUrlPolicy()).toEqual(stage);
    vi.stubEnv('WEBHOOKS_ALLOW_LOOPBACK', 'true');
    expect(webhookUrlPolicy()).toEqual(local);
  });
});
