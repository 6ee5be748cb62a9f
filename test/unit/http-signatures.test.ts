import { constants, createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentDigest, type SignedMessage, signatureProblem } from '#shared/providers/http-signatures.ts';

// pawaPay's callbacks as its documentation signs them (https://docs.pawapay.io/v2/docs/signatures):
// RFC 9421 over @method, @authority, @path, signature-date, content-digest and content-type.
const body = JSON.stringify({
  depositId: '8917c345-4791-4285-a416-62f24b6982db',
  status: 'COMPLETED',
  amount: '2500',
});
const url = 'https://pay.example/prod/provider_callbacks/pawapay/deposits';
const now = Date.parse('2026-11-28T12:00:00Z');
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

function signed({
  key = ec.privateKey,
  alg = 'ecdsa-p256-sha256',
  encoding = 'der' as 'der' | 'ieee-p1363',
  components = ['@method', '@authority', '@path', 'signature-date', 'content-digest', 'content-type'],
  expires = now / 1000 + 60,
  digest = contentDigest(body),
  signedUrl = url,
} = {}): SignedMessage {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=UTF-8',
    'content-digest': digest,
    'signature-date': '2026-11-28T12:00:00Z',
  };
  const params = `(${components.map((c) => `"${c}"`).join(' ')});alg="${alg}";keyid="HTTP_EC_P256_KEY:1";created=${now / 1000};expires=${expires}`;
  const target = new URL(signedUrl);
  const values: Record<string, string> = {
    '@method': 'POST',
    '@authority': target.host,
    '@path': target.pathname,
  };
  const base = [
    ...components.map((c) => `"${c}": ${values[c] ?? headers[c]}`),
    `"@signature-params": ${params}`,
  ].join('\n');
  const hash = alg.endsWith('sha512') ? 'sha512' : alg.endsWith('sha384') ? 'sha384' : 'sha256';
  const signature = sign(hash, Buffer.from(base), { key, dsaEncoding: encoding }).toString('base64');
  return {
    method: 'POST',
    url,
    rawBody: body,
    headers: { ...headers, 'signature-input': `sig-pp=${params}`, signature: `sig-pp=:${signature}:` },
  };
}

describe('RFC 9421 signatures as pawaPay sends them', () => {
  it('hold in DER (pawaPay’s samples) and in raw r‖s (the RFC)', () => {
    expect(signatureProblem(signed(), pem(ec.publicKey), now)).toBeUndefined();
    expect(signatureProblem(signed({ encoding: 'ieee-p1363' }), pem(ec.publicKey), now)).toBeUndefined();
  });

  it('hold with RSA-PSS SHA-512, and a SHA-256 Content-Digest', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const message = signed({ key: rsa.privateKey, alg: 'rsa-pss-sha512' });
    // RSA-PSS: signed with the PSS padding and a 64-byte salt, as the verifier expects.
    const params = /sig-pp=(.*)$/.exec(message.headers['signature-input'] ?? '')?.[1] ?? '';
    const base =
      message.headers['signature-input'] &&
      [
        `"@method": POST`,
        `"@authority": pay.example`,
        `"@path": /prod/provider_callbacks/pawapay/deposits`,
        `"signature-date": 2026-11-28T12:00:00Z`,
        `"content-digest": ${message.headers['content-digest']}`,
        `"content-type": application/json; charset=UTF-8`,
        `"@signature-params": ${params}`,
      ].join('\n');
    const pss = sign('sha512', Buffer.from(base ?? ''), {
      key: rsa.privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 64,
    });
    message.headers.signature = `sig-pp=:${pss.toString('base64')}:`;
    expect(signatureProblem(message, pem(rsa.publicKey), now)).toBeUndefined();
    const sha256 = signed({
      digest: `sha-256=:${createHash('sha256').update(body).digest('base64')}:`,
    });
    expect(signatureProblem(sha256, pem(ec.publicKey), now)).toBeUndefined();
  });

  it('refuse another key, a changed body, another path, an expired or unsigned message', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(signatureProblem(signed({ key: other.privateKey }), pem(ec.publicKey), now)).toBe(
      'signature does not match',
    );
    expect(
      signatureProblem({ ...signed(), rawBody: body.replace('2500', '250000') }, pem(ec.publicKey), now),
    ).toBe('body digest differs');
    expect(
      signatureProblem(
        signed({ signedUrl: 'https://pay.example/prod/provider_callbacks/pawapay/payouts' }),
        pem(ec.publicKey),
        now,
      ),
    ).toBe('signature does not match');
    expect(signatureProblem(signed({ expires: now / 1000 - 1 }), pem(ec.publicKey), now)).toBe('expired');
    const { signature: _s, ...unsignedHeaders } = signed().headers;
    expect(signatureProblem({ ...signed(), headers: unsignedHeaders }, pem(ec.publicKey), now)).toBe(
      'unsigned',
    );
  });

  it('refuse a signature that does not cover the body, or an algorithm pawaPay does not use', () => {
    expect(
      signatureProblem(signed({ components: ['@method', '@authority', '@path'] }), pem(ec.publicKey), now),
    ).toBe('the body is not covered');
    expect(signatureProblem(signed({ alg: 'hmac-sha256' }), pem(ec.publicKey), now)).toBe(
      'algorithm hmac-sha256 not accepted',
    );
  });
});
