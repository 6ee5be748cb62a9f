import { describe, expect, it } from 'vitest';
import { signWebhookBody, verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';

// RFC 4231, test case 2.
const rfcKey = 'Jefe';
const rfcData = 'what do ya want for nothing?';
const rfcMac = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';

// Computed apart with `printf '%s' BODY | openssl dgst -sha256 -hmac SECRET`; the body has
// non-ASCII text, so the bytes signed are its UTF-8 encoding.
const secret = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const body =
  '{"id":"tx_1","amount":{"amount":150000,"currency":"XOF"},"status":"success","counterpartLabel":"Aïcha Koné"}';
const bodyMac = 'bc090b164187bb3aa24e7ddcf2c1da9c4661352350a98c7ffe2919fbca9c97ca';

describe('signWebhookBody', () => {
  it('is the lowercase hex HMAC-SHA256 of the bytes (RFC 4231)', () => {
    expect(signWebhookBody(rfcData, rfcKey)).toBe(rfcMac);
  });

  it('signs the UTF-8 bytes of a string body, the same as the Buffer of them', () => {
    expect(signWebhookBody(body, secret)).toBe(bodyMac);
    expect(signWebhookBody(Buffer.from(body, 'utf8'), secret)).toBe(bodyMac);
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts the right signature, for a string or a Buffer body', () => {
    expect(verifyWebhookSignature(rfcData, rfcMac, rfcKey)).toBe(true);
    expect(verifyWebhookSignature(body, bodyMac, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), bodyMac, secret)).toBe(true);
  });

  it('refuses a body changed by one byte, or re-encoded with other whitespace', () => {
    expect(verifyWebhookSignature(body.replace('150000', '150001'), bodyMac, secret)).toBe(false);
    expect(verifyWebhookSignature(`${body} `, bodyMac, secret)).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 1), bodyMac, secret)).toBe(false);
    const bytes = Buffer.from(body);
    const at = bytes.length - 2;
    bytes.writeUInt8(bytes.readUInt8(at) ^ 1, at);
    expect(verifyWebhookSignature(bytes, bodyMac, secret)).toBe(false);
  });

  it('refuses another secret', () => {
    expect(verifyWebhookSignature(body, bodyMac, `${secret}0`)).toBe(false);
    expect(verifyWebhookSignature(body, bodyMac, '')).toBe(false);
  });

  it('refuses a signature with one digit changed', () => {
    const last = bodyMac.at(-1) === '0' ? '1' : '0';
    expect(verifyWebhookSignature(body, `${bodyMac.slice(0, -1)}${last}`, secret)).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['truncated', bodyMac.slice(0, 63)],
    ['too long', `${bodyMac}0`],
    ['uppercase', bodyMac.toUpperCase()],
    ['not hex', `${bodyMac.slice(0, 63)}g`],
    ['padded', ` ${bodyMac}`],
    ['prefixed', `sha256=${bodyMac}`],
    ['base64', Buffer.from(bodyMac, 'hex').toString('base64')],
  ])('is false, without throwing, for a %s header', (_case, header) => {
    expect(verifyWebhookSignature(body, header, secret)).toBe(false);
  });
});
