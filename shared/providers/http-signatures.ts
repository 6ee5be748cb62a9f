import { constants, createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto';

/**
 * Verifies a message signed by HTTP Message Signatures (RFC 9421) with a Content-Digest (RFC 9530),
 * as pawaPay signs its callbacks (https://docs.pawapay.io/v2/docs/signatures): the components the
 * `Signature-Input` lists are rebuilt in its order into the signature base (RFC 9421 §2.5) and the
 * base is checked against the `Signature` of the same label, with the one public key the stage was
 * given. Only what pawaPay uses is read: derived components `@method`, `@authority`, `@path`, header
 * fields, and the four algorithms its dashboard accepts.
 */
export interface SignedMessage {
  method: string;
  /** The URL the sender addressed: its host is `@authority`, its path `@path`. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  rawBody: string;
}

/** The algorithms pawaPay's dashboard accepts (https://docs.pawapay.io/dashboard/other/system_conf/api_tokens). */
const algorithms: Record<string, { hash: string; options?: object }> = {
  'ecdsa-p256-sha256': { hash: 'sha256' },
  'ecdsa-p384-sha384': { hash: 'sha384' },
  'rsa-v1_5-sha256': { hash: 'sha256' },
  'rsa-pss-sha512': { hash: 'sha512', options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 } },
};

/** The digests a `Content-Digest` may carry (RFC 9530 §5), by the name Node knows them. */
const digests: Record<string, string> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };

/** Why a message's signature does not hold, or undefined when it does. */
export function signatureProblem(
  message: SignedMessage,
  publicKeyPem: string,
  nowMs: number,
): string | undefined {
  const input = message.headers['signature-input'];
  const signature = message.headers.signature;
  if (!input || !signature) return 'unsigned';
  const parsed = /^\s*([A-Za-z0-9_.*-]+)=(\(([^)]*)\)(.*))$/.exec(input);
  if (!parsed) return 'unreadable Signature-Input';
  const [, label, signatureParams = '', list = '', params = ''] = parsed;
  const value = new RegExp(`(?:^|,)\\s*${label?.replace(/[.*]/g, '\\$&')}=:([A-Za-z0-9+/=]+):`).exec(
    signature,
  )?.[1];
  if (!value) return 'no signature of the label Signature-Input names';
  const parameter = (name: string) => new RegExp(`;${name}=("([^"]*)"|(\\d+))`).exec(params);
  const alg = parameter('alg')?.[2];
  const algorithm = alg ? algorithms[alg] : undefined;
  if (!algorithm) return `algorithm ${alg ?? '(none)'} not accepted`;
  const expires = Number(parameter('expires')?.[3]);
  if (Number.isFinite(expires) && expires * 1000 < nowMs) return 'expired';
  const components = [...list.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? '');
  // The body is covered only through its digest: a signature that leaves it out proves nothing of it.
  if (!components.includes('content-digest')) return 'the body is not covered';
  const digestProblem = contentDigestProblem(message.headers['content-digest'], message.rawBody);
  if (digestProblem) return digestProblem;
  const url = new URL(message.url);
  const lines: string[] = [];
  for (const component of components) {
    const derived: Record<string, string> = {
      '@method': message.method.toUpperCase(),
      '@authority': url.host.toLowerCase(),
      '@path': url.pathname,
    };
    const found = component.startsWith('@') ? derived[component] : message.headers[component]?.trim();
    if (found === undefined) return `component ${component} missing`;
    lines.push(`"${component}": ${found}`);
  }
  lines.push(`"@signature-params": ${signatureParams}`);
  const bytes = Buffer.from(value, 'base64');
  const key = createPublicKey(publicKeyPem);
  // RFC 9421 §3.3.4 asks for raw r‖s; pawaPay's own samples sign in DER: both are read.
  // A raw one is exactly twice the curve's size (64 or 96 bytes); DER never is.
  const ecdsaEncoding = bytes.length === 64 || bytes.length === 96 ? 'ieee-p1363' : 'der';
  try {
    const holds = verify(
      algorithm.hash,
      Buffer.from(lines.join('\n')),
      { key, ...(alg?.startsWith('ecdsa') ? { dsaEncoding: ecdsaEncoding } : {}), ...algorithm.options },
      bytes,
    );
    return holds ? undefined : 'signature does not match';
  } catch {
    return 'signature unreadable';
  }
}

/** Whether `Content-Digest` names a digest we know and it is the body's. */
function contentDigestProblem(header: string | undefined, rawBody: string): string | undefined {
  if (!header) return 'no Content-Digest';
  for (const [, name, value] of header.matchAll(/([a-z0-9-]+)=:([A-Za-z0-9+/=]+):/g)) {
    const hash = digests[name ?? ''];
    if (!hash || !value) continue;
    const expected = createHash(hash).update(rawBody).digest();
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected)
      ? undefined
      : 'body digest differs';
  }
  return 'no digest of a known algorithm';
}

/** `Content-Digest` of a body, as a sender writes it (the fakes sign with it). */
export const contentDigest = (rawBody: string) =>
  `sha-512=:${createHash('sha512').update(rawBody).digest('base64')}:`;
