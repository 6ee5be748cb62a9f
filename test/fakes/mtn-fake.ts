import { randomBytes } from 'node:crypto';
import type { MtnCredentials, MtnTransaction } from '#shared/providers/mtn.ts';
import { type FakeAnswer, type FakeRequest, postCallback, startFakeServer } from '#test/fakes/fake-server.ts';

/**
 * MTN MoMo's Open API (Collection and Disbursement) as its published documentation describes it
 * (https://momodeveloper.mtn.com/api-documentation/api-description,
 * https://momodeveloper.mtn.com/docs/services/collection/operations/requesttopay-POST,
 * https://momodeveloper.mtn.com/api-documentation/callback): tokens from Basic auth and the
 * subscription key, `X-Reference-Id` UUIDs refused twice with 409 RESOURCE_ALREADY_EXIST, 202 then
 * an unsigned callback (sent once, never retried) to `X-Callback-Url`, the status query.
 *
 * The party's number (last two digits) chooses what happens: 02 FAILED APPROVAL_REJECTED (payer
 * declines; for a payee, PAYEE_NOT_FOUND), 03 FAILED NOT_ENOUGH_FUNDS (payee: PAYER_LIMIT_REACHED),
 * 04 stays PENDING (settled through `/_fake/…`), 05 answered at once 500 PAYER_NOT_FOUND, anything else
 * SUCCESSFUL. Scripted through `/_fake/…`:
 * - `POST /_fake/{product}/{referenceId}/settle {"status", "reason"?, "callback": true|false}`
 * - `POST /_fake/{product}/{referenceId}/callback {body}`: a callback of any content (a forged one,
 *   one that disagrees with the status, a duplicate, an old one after a newer).
 * - `POST /_fake/tokens/expire`: every token issued so far stops working (401).
 * Refunds (`POST /disbursement/v1_0/refund`, with the disbursement product's token) pay back a
 * SUCCESSFUL request to pay named by `referenceIdToRefund`, whole or in part, never more than it
 * took: to its payer, whose number's last digits choose the outcome as for a transfer; their status
 * is read at `GET /disbursement/v1_0/refund/{referenceId}`, and scripted at `/_fake/refund/...`.
 * - `POST /_fake/failures {pathPattern, kind, count}`.
 */
export interface MtnFakeOptions {
  credentials: MtnCredentials;
  targetEnvironment: string;
  port?: number;
  /** How long the payer takes to answer the prompt: seconds, as a person types a PIN. */
  answerDelayMs?: number;
  tokenSeconds?: number;
}

type Product = 'collection' | 'disbursement';
/** What a reference names: a product's transaction, or a refund (of the disbursement product). */
type Resource = Product | 'refund';

interface Held extends MtnTransaction {
  callbackUrl?: string | undefined;
  /** A refund's request to pay. */
  refunded?: string | undefined;
}

const error = (status: number, code: string, message: string): FakeAnswer => ({
  status,
  body: { code, message },
});

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export async function startMtnFake(options: MtnFakeOptions) {
  const transactions: Record<Resource, Map<string, Held>> = {
    collection: new Map(),
    disbursement: new Map(),
    refund: new Map(),
  };
  const tokens = new Map<string, { product: Product; expiresAt: number }>();
  const tokensIssued: Record<Product, number> = { collection: 0, disbursement: 0 };
  const callbacksSent: { product: Resource; referenceId: string; body: string }[] = [];

  async function sendCallback(product: Resource, referenceId: string, body: string) {
    const held = transactions[product].get(referenceId);
    if (!held?.callbackUrl) return;
    callbacksSent.push({ product, referenceId, body });
    // Once, with no retry, as the documentation warns; PUT, which MTN uses as often as POST.
    await postCallback(held.callbackUrl, body, {}, 'PUT');
  }

  const publicView = ({ callbackUrl: _url, refunded: _refunded, ...transaction }: Held): MtnTransaction =>
    transaction;

  async function settle(
    product: Resource,
    referenceId: string,
    status: Held['status'],
    reason?: string,
    callback = true,
  ) {
    const held = transactions[product].get(referenceId);
    if (!held) return error(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    if (held.status !== 'PENDING') return error(409, 'NOT_ALLOWED', 'The transaction is already final.');
    held.status = status;
    if (status === 'SUCCESSFUL') held.financialTransactionId = String(Date.now());
    if (reason) held.reason = { code: reason, message: reason.toLowerCase().replaceAll('_', ' ') };
    if (callback) await sendCallback(product, referenceId, JSON.stringify(publicView(held)));
    return { status: 200, body: publicView(held) };
  }

  function authorised(request: FakeRequest, product: Product): FakeAnswer | undefined {
    if (request.headers['ocp-apim-subscription-key'] !== options.credentials[product].subscriptionKey)
      return {
        status: 401,
        body: { statusCode: 401, message: 'Access denied due to invalid subscription key.' },
      };
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    const token = bearer ? tokens.get(bearer) : undefined;
    if (!token || token.product !== product || token.expiresAt <= Date.now())
      return { status: 401, body: { message: 'Access token is missing or invalid', code: 'INVALID_TOKEN' } };
    if (request.headers['x-target-environment'] !== options.targetEnvironment)
      return error(403, 'NOT_ALLOWED_TARGET_ENVIRONMENT', 'Access to target environment is forbidden.');
    return undefined;
  }

  /** The payer of a successful request to pay a refund names, when it may take `amount` more back. */
  function refundedParty(body: Record<string, unknown>): Held['payee'] | FakeAnswer {
    const collected = transactions.collection.get(String(body.referenceIdToRefund ?? ''));
    if (collected?.status !== 'SUCCESSFUL')
      return error(400, 'INVALID_REFERENCE_ID', 'referenceIdToRefund names no successful request to pay.');
    const already = [...transactions.refund.values()]
      .filter((refund) => refund.refunded === body.referenceIdToRefund && refund.status !== 'FAILED')
      .reduce((sum, refund) => sum + Number(refund.amount), 0);
    if (already + Number(body.amount) > Number(collected.amount))
      return error(400, 'NOT_ALLOWED', 'The amount is greater than what remains refundable.');
    return collected.payer;
  }

  function create(product: Resource, request: FakeRequest): FakeAnswer {
    const referenceId = request.headers['x-reference-id'];
    if (typeof referenceId !== 'string' || !uuidV4.test(referenceId))
      return error(400, 'INVALID_REFERENCE_ID', 'X-Reference-Id must be a UUID version 4.');
    if (transactions[product].has(referenceId))
      return error(409, 'RESOURCE_ALREADY_EXIST', 'Duplicated reference id. Creation of resource failed.');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const refunded = product === 'refund' ? refundedParty(body) : undefined;
    if (refunded && 'status' in refunded) return refunded;
    const party = (product === 'collection' ? body.payer : product === 'refund' ? refunded : body.payee) as
      | { partyIdType?: string; partyId?: string }
      | undefined;
    if (typeof body.amount !== 'string' || !/^[1-9]\d*(\.\d+)?$/.test(body.amount))
      return error(400, 'INVALID_AMOUNT', 'Amount is invalid.');
    if (body.currency !== 'XOF') return error(500, 'INVALID_CURRENCY', 'Currency not supported.');
    if (party?.partyIdType !== 'MSISDN' || !/^\d{8,15}$/.test(party.partyId ?? ''))
      return error(400, 'INVALID_PARTY', 'The party is invalid.');
    const suffix = (party.partyId as string).slice(-2);
    if (suffix === '05')
      return error(500, product === 'collection' ? 'PAYER_NOT_FOUND' : 'PAYEE_NOT_FOUND', 'Party not found.');
    const held: Held = {
      amount: body.amount,
      currency: 'XOF',
      externalId: String(body.externalId ?? ''),
      ...(product === 'collection' ? { payer: party as Held['payer'] } : { payee: party as Held['payee'] }),
      ...(product === 'refund' ? { refunded: String(body.referenceIdToRefund) } : {}),
      status: 'PENDING',
      callbackUrl:
        typeof request.headers['x-callback-url'] === 'string' ? request.headers['x-callback-url'] : undefined,
    };
    transactions[product].set(referenceId, held);
    if (suffix !== '04') {
      const failed =
        suffix === '02'
          ? product === 'collection'
            ? 'APPROVAL_REJECTED'
            : 'PAYEE_NOT_FOUND'
          : suffix === '03'
            ? product === 'collection'
              ? 'NOT_ENOUGH_FUNDS'
              : 'PAYER_LIMIT_REACHED'
            : undefined;
      setTimeout(
        () => void settle(product, referenceId, failed ? 'FAILED' : 'SUCCESSFUL', failed),
        options.answerDelayMs ?? 2_000,
      );
    }
    return { status: 202 };
  }

  const server = await startFakeServer(async (request) => {
    const { method, path } = request;
    let match: RegExpMatchArray | null;
    match = path.match(/^\/_fake\/(collection|disbursement|refund)\/([\w-]+)\/settle$/);
    if (match) {
      const {
        status,
        reason,
        callback = true,
      } = request.body as { status: Held['status']; reason?: string; callback?: boolean };
      return settle(match[1] as Resource, match[2] as string, status, reason, callback);
    }
    match = path.match(/^\/_fake\/(collection|disbursement)\/([\w-]+)\/callback$/);
    if (match) {
      await sendCallback(match[1] as Product, match[2] as string, request.rawBody);
      return { status: 204 };
    }
    if (path === '/_fake/tokens/expire') {
      for (const token of tokens.values()) token.expiresAt = 0;
      return { status: 204 };
    }
    if (path === '/_fake/state') return { status: 200, body: { tokensIssued, callbacksSent } };

    match = path.match(/^\/(collection|disbursement)\/token\/$/);
    if (match && method === 'POST') {
      const product = match[1] as Product;
      const credentials = options.credentials[product];
      const expected = `Basic ${Buffer.from(`${credentials.apiUser}:${credentials.apiKey}`).toString('base64')}`;
      if (request.headers['ocp-apim-subscription-key'] !== credentials.subscriptionKey)
        return {
          status: 401,
          body: { statusCode: 401, message: 'Access denied due to invalid subscription key.' },
        };
      if (request.headers.authorization !== expected) return { status: 401, body: { error: 'login_failed' } };
      const token = randomBytes(24).toString('base64url');
      const seconds = options.tokenSeconds ?? 3600;
      tokens.set(token, { product, expiresAt: Date.now() + seconds * 1000 });
      tokensIssued[product]++;
      return { status: 200, body: { access_token: token, token_type: 'access_token', expires_in: seconds } };
    }
    const product: Product | undefined = path.startsWith('/collection/')
      ? 'collection'
      : path.startsWith('/disbursement/')
        ? 'disbursement'
        : undefined;
    if (!product) return error(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    const refused = authorised(request, product);
    if (refused) return refused;
    if (path === '/disbursement/v1_0/refund' && method === 'POST') return create('refund', request);
    match = path.match(/^\/disbursement\/v1_0\/refund\/([\w-]+)$/);
    if (match && method === 'GET') {
      const held = transactions.refund.get(match[1] as string);
      return held
        ? { status: 200, body: publicView(held) }
        : error(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    }
    const resource = product === 'collection' ? 'requesttopay' : 'transfer';
    if (path === `/${product}/v1_0/${resource}` && method === 'POST') return create(product, request);
    match = path.match(new RegExp(`^/${product}/v1_0/${resource}/([\\w-]+)$`));
    if (match && method === 'GET') {
      const held = transactions[product].get(match[1] as string);
      return held
        ? { status: 200, body: publicView(held) }
        : error(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    }
    return error(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
  }, options.port);
  return { ...server, transactions, tokensIssued, callbacksSent };
}

export type MtnFake = Awaited<ReturnType<typeof startMtnFake>>;
