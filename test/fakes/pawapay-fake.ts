import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { callingCodeOf } from '#shared/domain/phone-numbers.ts';
import { contentDigest } from '#shared/providers/http-signatures.ts';
import type { PawapayKind, PawapayTransaction } from '#shared/providers/pawapay.ts';
import { alpha3, pawapayProviderEntries } from '#shared/providers/pawapay-providers.ts';
import { type FakeAnswer, type FakeRequest, postCallback, startFakeServer } from '#test/fakes/fake-server.ts';

/**
 * pawaPay's Merchant API v2 as its published documentation describes it
 * (https://docs.pawapay.io/v2/api-reference, https://docs.pawapay.io/v2/docs/test_numbers,
 * https://docs.pawapay.io/v2/docs/signatures): a Bearer token; deposits, payouts and refunds under
 * ids the caller chooses (UUID v4), answered 200 ACCEPTED, REJECTED with a `failureReason`, or
 * DUPLICATE_IGNORED for an id already taken; the status checks' `{status: FOUND|NOT_FOUND, data}`;
 * a callback per final status, POSTed to the URL of the kind configured "in the dashboard"
 * (`callbackBase` + `/provider_callbacks/pawapay/{kind}`), signed by RFC 9421 with an ECDSA P-256
 * key whose public half `GET /v2/public-key/http` gives; the active configuration and availability.
 *
 * The number's last three digits choose the outcome, as on pawaPay's sandbox: deposits 029
 * PAYER_NOT_FOUND, 039 PAYMENT_NOT_APPROVED, 049 INSUFFICIENT_BALANCE, 069 UNSPECIFIED_FAILURE;
 * payouts 089 RECIPIENT_NOT_FOUND, 099 WALLET_LIMIT_REACHED, 119 UNSPECIFIED_FAILURE; 129 stays
 * ACCEPTED (settled through `/_fake/…`); anything else COMPLETED. XOF amounts take no decimals
 * (INVALID_AMOUNT). Scripted through `/_fake/…`:
 * - `POST /_fake/{kind}/{id}/settle {"status", "failureCode"?, "callback": true|false}`
 * - `POST /_fake/{kind}/callback {body}`: a callback of any content, signed as pawaPay signs
 *   (`"forge": true` signs with another key): forged, disagreeing, duplicated.
 * - `POST /_fake/providers/{provider} {"status": "OPERATIONAL"|"DELAYED"|"CLOSED"}`: a CLOSED
 *   provider rejects every request with PROVIDER_TEMPORARILY_UNAVAILABLE.
 */
export interface PawapayFakeOptions {
  apiToken: string;
  /** The service's base URL, where the dashboard's callback URLs point; settable later. */
  callbackBase?: string;
  /** How long the payer takes to approve the prompt. */
  answerDelayMs?: number;
  /** False: nothing settles by itself, every outcome is the caller's (`settle`), as the simulation plays it. */
  settlesItself?: boolean;
  port?: number;
}

interface Held extends PawapayTransaction {
  kind: PawapayKind;
  created: string;
}

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const idField = { deposits: 'depositId', payouts: 'payoutId', refunds: 'refundId' } as const;
const keyId = 'HTTP_EC_P256_KEY:1';

/** Every provider of the zone the fake carries: its country (ISO alpha-3) and calling code. */
const providerCountry = new Map(
  pawapayProviderEntries.map(({ code, country }) => [
    code,
    { alpha3: alpha3[country], prefix: callingCodeOf(country) },
  ]),
);

const rejected = (
  id: Record<string, string>,
  failureCode: string,
  failureMessage = failureCode,
): FakeAnswer => ({
  status: 200,
  body: { ...id, status: 'REJECTED', failureReason: { failureCode, failureMessage } },
});

const depositFailures: Record<string, string> = {
  '029': 'PAYER_NOT_FOUND',
  '039': 'PAYMENT_NOT_APPROVED',
  '049': 'INSUFFICIENT_BALANCE',
  '069': 'UNSPECIFIED_FAILURE',
};
const payoutFailures: Record<string, string> = {
  '089': 'RECIPIENT_NOT_FOUND',
  '099': 'WALLET_LIMIT_REACHED',
  '119': 'UNSPECIFIED_FAILURE',
};

/** pawaPay's API as a function of a request, and its controls: served over HTTP, or in the simulation. */
export function pawapayFake(options: PawapayFakeOptions) {
  const held = new Map<string, Held>();
  const availability = new Map<string, 'OPERATIONAL' | 'DELAYED' | 'CLOSED'>();
  const callbacksSent: { kind: PawapayKind; id: string; status: number }[] = [];
  let callbackBase = options.callbackBase;
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

  /** The headers pawaPay's signed callbacks carry, over `url` and `body`. */
  function signedHeaders(url: string, body: string, key: KeyObject): Record<string, string> {
    const created = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json; charset=UTF-8',
      'content-digest': contentDigest(body),
      'signature-date': new Date().toISOString(),
    };
    const params = `("@method" "@authority" "@path" "signature-date" "content-digest" "content-type");alg="ecdsa-p256-sha256";keyid="${keyId}";created=${created};expires=${created + 60}`;
    const target = new URL(url);
    const base = [
      `"@method": POST`,
      `"@authority": ${target.host}`,
      `"@path": ${target.pathname}`,
      `"signature-date": ${headers['signature-date']}`,
      `"content-digest": ${headers['content-digest']}`,
      `"content-type": ${headers['content-type']}`,
      `"@signature-params": ${params}`,
    ].join('\n');
    // DER, as pawaPay's own signing samples produce.
    const signature = sign('sha256', Buffer.from(base), key).toString('base64');
    return { ...headers, 'signature-input': `sig-pp=${params}`, signature: `sig-pp=:${signature}:` };
  }

  async function sendCallback(kind: PawapayKind, id: string, body: string, key = privateKey) {
    if (!callbackBase) return;
    const url = `${callbackBase}/provider_callbacks/pawapay/${kind}`;
    const status = await postCallback(url, body, signedHeaders(url, body, key));
    callbacksSent.push({ kind, id, status });
  }

  const publicView = ({ kind: _kind, ...transaction }: Held): PawapayTransaction => transaction;

  async function settle(
    kind: PawapayKind,
    id: string,
    status: string,
    failureCode?: string,
    callback = true,
  ) {
    const found = held.get(`${kind}:${id}`);
    if (!found) return { status: 404, body: { message: 'unknown' } };
    if (found.status === 'COMPLETED' || found.status === 'FAILED')
      return { status: 409, body: { message: 'final' } };
    found.status = status;
    if (status === 'COMPLETED') found.providerTransactionId = String(Date.now());
    if (failureCode) found.failureReason = { failureCode, failureMessage: failureCode.toLowerCase() };
    if (callback) await sendCallback(kind, id, JSON.stringify(publicView(found)));
    return { status: 200, body: publicView(found) };
  }

  /** The MMO party of a request, or why pawaPay rejects it. */
  function party(request: FakeRequest, field: 'payer' | 'recipient') {
    const given = (request.body as Record<string, unknown>)[field] as
      | { type?: string; accountDetails?: { phoneNumber?: string; provider?: string } }
      | undefined;
    const provider = given?.accountDetails?.provider ?? '';
    const phone = given?.accountDetails?.phoneNumber ?? '';
    const country = providerCountry.get(provider);
    if (given?.type !== 'MMO') return { problem: 'INVALID_PARAMETER' };
    if (!country) return { problem: 'INVALID_PROVIDER' };
    if (!/^\d{8,15}$/.test(phone) || !phone.startsWith(country.prefix))
      return { problem: 'INVALID_PHONE_NUMBER' };
    if (availability.get(provider) === 'CLOSED') return { problem: 'PROVIDER_TEMPORARILY_UNAVAILABLE' };
    return {
      party: { type: 'MMO', accountDetails: { phoneNumber: phone, provider } },
      country: country.alpha3,
    };
  }

  function initiate(kind: PawapayKind, request: FakeRequest): FakeAnswer {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const id = String(body[idField[kind]] ?? '');
    const idOf = { [idField[kind]]: id };
    if (!uuidV4.test(id))
      return { status: 400, body: { failureReason: { failureCode: 'INVALID_PARAMETER' } } };
    if (held.has(`${kind}:${id}`)) return { status: 200, body: { ...idOf, status: 'DUPLICATE_IGNORED' } };
    let subject: { party: Held['payer']; country: string } | { problem: string };
    let amount = String(body.amount ?? '');
    if (kind === 'refunds') {
      const deposit = held.get(`deposits:${String(body.depositId ?? '')}`);
      if (!deposit) return rejected(idOf, 'NOT_FOUND');
      if (deposit.status !== 'COMPLETED') return rejected(idOf, 'INVALID_STATE');
      const refunded = [...held.values()]
        .filter(
          (t) => t.kind === 'refunds' && t.metadata?.depositId === deposit.depositId && t.status !== 'FAILED',
        )
        .reduce((sum, t) => sum + Number(t.amount), 0);
      if (body.amount === undefined) amount = String(Number(deposit.amount) - refunded);
      if (refunded + Number(amount) > Number(deposit.amount)) return rejected(idOf, 'AMOUNT_TOO_LARGE');
      subject = { party: deposit.payer, country: deposit.country ?? '' };
    } else {
      subject = party(request, kind === 'deposits' ? 'payer' : 'recipient');
    }
    if ('problem' in subject) return rejected(idOf, subject.problem);
    if (!/^([0]|([1-9][0-9]{0,17}))([.][0-9]{0,3}[1-9])?$/.test(amount))
      return rejected(idOf, 'INVALID_AMOUNT');
    // Every XOF provider's `decimalsInAmount` is NONE.
    if (amount.includes('.')) return rejected(idOf, 'INVALID_AMOUNT', 'XOF takes no decimals');
    if (kind !== 'refunds' && body.currency !== 'XOF') return rejected(idOf, 'INVALID_CURRENCY');
    const transaction: Held = {
      kind,
      [idField[kind]]: id,
      status: 'ACCEPTED',
      amount,
      currency: 'XOF',
      country: subject.country,
      created: new Date().toISOString(),
      ...(kind === 'deposits' ? { payer: subject.party } : { recipient: subject.party }),
      metadata: {
        ...Object.assign({}, ...((body.metadata as Record<string, string>[] | undefined) ?? [])),
        ...(kind === 'refunds' ? { depositId: String(body.depositId) } : {}),
      },
    };
    held.set(`${kind}:${id}`, transaction);
    const suffix = subject.party?.accountDetails.phoneNumber.slice(-3) ?? '';
    if (suffix !== '129' && options.settlesItself !== false) {
      const failure = (kind === 'deposits' ? depositFailures : payoutFailures)[suffix];
      setTimeout(
        () => void settle(kind, id, failure ? 'FAILED' : 'COMPLETED', failure),
        options.answerDelayMs ?? 1_000,
      );
    }
    return { status: 200, body: { ...idOf, status: 'ACCEPTED', created: transaction.created } };
  }

  function countries() {
    const byCountry = new Map<string, { prefix: string; providers: string[] }>();
    for (const [provider, { alpha3: country, prefix }] of providerCountry)
      byCountry.set(country, { prefix, providers: [...(byCountry.get(country)?.providers ?? []), provider] });
    return byCountry;
  }

  function activeConfiguration() {
    const byCountry = countries();
    const operation = (provider: string) => ({
      minAmount: '100',
      maxAmount: '2000000',
      decimalsInAmount: 'NONE',
      status: availability.get(provider) ?? 'OPERATIONAL',
    });
    return {
      companyName: 'Partner Payments (fake)',
      signatureConfiguration: { signedRequestsOnly: false, signedCallbacks: true },
      countries: [...byCountry].map(([country, { prefix, providers }]) => ({
        country,
        prefix,
        providers: providers.map((provider) => ({
          provider,
          currencies: [
            {
              currency: 'XOF',
              operationTypes: [
                { DEPOSIT: { ...operation(provider), authType: 'PROVIDER_AUTH', pinPrompt: 'AUTOMATIC' } },
                { PAYOUT: operation(provider) },
                { REFUND: operation(provider) },
              ],
            },
          ],
        })),
      })),
    };
  }

  async function route(request: FakeRequest): Promise<FakeAnswer> {
    const { method, path } = request;
    let match = path.match(/^\/_fake\/(deposits|payouts|refunds)\/([\w-]+)\/settle$/);
    if (match) {
      const {
        status,
        failureCode,
        callback = true,
      } = request.body as {
        status: string;
        failureCode?: string;
        callback?: boolean;
      };
      return settle(match[1] as PawapayKind, match[2] as string, status, failureCode, callback);
    }
    match = path.match(/^\/_fake\/(deposits|payouts|refunds)\/callback$/);
    if (match) {
      const { forge, ...body } = request.body as Record<string, unknown>;
      await sendCallback(
        match[1] as PawapayKind,
        String(body[idField[match[1] as PawapayKind]]),
        JSON.stringify(body),
        forge ? forger : privateKey,
      );
      return { status: 200, body: { sent: callbacksSent.at(-1) } };
    }
    match = path.match(/^\/_fake\/providers\/(\w+)$/);
    if (match) {
      availability.set(match[1] as string, (request.body as { status: 'OPERATIONAL' }).status);
      return { status: 204 };
    }
    if (path === '/_fake/state') return { status: 200, body: { callbacksSent } };

    if (request.headers.authorization !== `Bearer ${options.apiToken}`)
      return { status: 401, body: { failureReason: { failureCode: 'AUTHENTICATION_ERROR' } } };
    if (path === '/v2/public-key/http' && method === 'GET')
      return { status: 200, body: [{ id: keyId, key: publicKey.export({ type: 'spki', format: 'pem' }) }] };
    if (path === '/v2/active-conf' && method === 'GET') return { status: 200, body: activeConfiguration() };
    // Providers grouped by country, a status per operation type, as the published example shows.
    if (path === '/v2/availability' && method === 'GET')
      return {
        status: 200,
        body: [...countries()].map(([country, { providers }]) => ({
          country,
          providers: providers.map((provider) => ({
            provider,
            operationTypes: (['DEPOSIT', 'PAYOUT', 'REFUND'] as const).map((operationType) => ({
              operationType,
              status: availability.get(provider) ?? 'OPERATIONAL',
            })),
          })),
        })),
      };
    match = path.match(/^\/v2\/(deposits|payouts|refunds)$/);
    if (match && method === 'POST') return initiate(match[1] as PawapayKind, request);
    match = path.match(/^\/v2\/(deposits|payouts|refunds)\/([\w-]+)$/);
    if (match && method === 'GET') {
      const found = held.get(`${match[1]}:${match[2]}`);
      return {
        status: 200,
        body: found ? { status: 'FOUND', data: publicView(found) } : { status: 'NOT_FOUND' },
      };
    }
    return { status: 404, body: { failureReason: { failureCode: 'NOT_FOUND' } } };
  }

  return {
    route,
    held,
    settle,
    callbacksSent,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    setCallbackBase: (base: string) => {
      callbackBase = base;
    },
  };
}

export async function startPawapayFake(options: PawapayFakeOptions) {
  const fake = pawapayFake(options);
  const server = await startFakeServer(fake.route, options.port);
  return { ...server, ...fake };
}

export type PawapayFake = Awaited<ReturnType<typeof startPawapayFake>>;
