import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusedReturnUrl } from '#shared/domain/return-urls.ts';

const sandbox = { allowHttp: true };
const production = { allowHttp: false };

describe('return URLs a page may send the payer to', () => {
  it.each([
    'javascript:alert(1)',
    'livescript:alert(1)',
    'vbscript:msgbox(1)',
    'mocha:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'blob:https://shop.example/0d1c',
    'file:///etc/passwd',
    'jar:https://evil.example/a.jar!/x.html',
    'ms-its:mhtml:file://c:/x.mht!https://evil.example/x.html',
    'view-source:https://shop.example',
    'about:blank',
  ])('refuses %s everywhere', (url) => {
    expect(refusedReturnUrl(url, sandbox)).toBeDefined();
    expect(refusedReturnUrl(url.toUpperCase(), sandbox)).toBeDefined();
  });

  it('allows https, and app deep links with their own scheme', () => {
    for (const url of ['https://shop.example/ok?ref=1', 'myapp://paid?reference=42', 'com.shop.app:/paid'])
      expect(refusedReturnUrl(url, production)).toBeUndefined();
  });

  it('allows plain http off production only', () => {
    expect(refusedReturnUrl('http://localhost:8080/ok', sandbox)).toBeUndefined();
    expect(refusedReturnUrl('http://shop.example/ok', production)).toMatch(/http/);
  });

  it('refuses what is not an absolute URL, or a web address without a host', () => {
    for (const url of [
      '/relative',
      ' https://shop.example',
      'java\tscript:alert(1)',
      'https://',
      'https:///x',
    ])
      expect(refusedReturnUrl(url, sandbox), url).toBeDefined();
  });

  it('never allows a refused scheme whatever follows it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('javascript', 'livescript', 'vbscript', 'data', 'jar', 'blob', 'file'),
        fc.string({ minLength: 1 }),
        (scheme, rest) => refusedReturnUrl(`${scheme}:${rest}`, sandbox) !== undefined,
      ),
    );
  });
});
