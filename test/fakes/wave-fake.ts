import { randomBytes } from 'node:crypto';
import { signWaveBody, type WaveCheckoutSession, type WavePayout } from '#shared/providers/wave.ts';
import { type FakeAnswer, type FakeRequest, postCallback, startFakeServer } from '#test/fakes/fake-server.ts';

/**
 * Wave's Checkout and Payout APIs as their published documentation describes them
 * (https://docs.wave.com/checkout, https://docs.wave.com/payout, https://docs.wave.com/webhook):
 * the request and answer shapes, the error bodies `{code, message}`, the bearer key, the
 * idempotency key of payouts, the signed webhook events. Scripted through `/_fake/…`:
 *
 * - `POST /_fake/sessions/{id}/pay {"result": "succeeded" | "failed" | "insufficient_funds",
 *   "deliveries": 1 | 2 | 0}`: the payer acts on the launch URL; the event is sent that many times
 *   (0: a lost webhook, which only the status query finds).
 * - `POST /_fake/sessions/{id}/expire`: the session expires unpaid (no event, as Wave sends none).
 * - `POST /_fake/payouts/{id}/settle {"status": "succeeded" | "failed"}`: a processing payout ends.
 * - `POST /_fake/failures {pathPattern, kind: "5xx" | "timeout", count}`.
 *
 * `POST /v1/checkout/sessions/:id/refund` gives a completed session's whole amount back (no body,
 * no amount): its `payment_status` then reads `refunded`, as the adapter reads it (an assumption
 * to confirm against Wave's sandbox, see shared/providers/wave.ts); a session not paid, or refunded
 * already, is refused.
 *
 * Payouts follow the mobile's last two digits: 02 failed (blocked-account), 03 failed
 * (recipient-limit-exceeded), 04 stays processing, anything else succeeded at once.
 * The payer's page (the launch URL) offers pay and decline buttons, for the local demo.
 */
export interface WaveFakeOptions {
  apiKey: string;
  webhookSecret: string;
  /** The webhook URL registered in the Business Portal: the service's `/provider_callbacks/wave`. */
  webhookUrl: string;
  port?: number;
  /** Sessions last 30 minutes at Wave. */
  sessionMinutes?: number;
}

const apiError = (status: number, code: string, message: string): FakeAnswer => ({
  status,
  body: { code, message },
});

const amountPattern = /^[1-9]\d*$/;

export async function startWaveFake(options: WaveFakeOptions) {
  const sessions = new Map<string, WaveCheckoutSession>();
  const payouts = new Map<string, WavePayout>();
  const payoutsByKey = new Map<string, string>();
  let eventCount = 0;
  let selfUrl = '';
  let webhookUrl = options.webhookUrl;

  async function sendEvent(type: string, session: WaveCheckoutSession, deliveries: number) {
    const body = JSON.stringify({ id: `EV_${randomBytes(6).toString('hex')}`, type, data: session });
    eventCount++;
    for (let delivery = 0; delivery < deliveries; delivery++) {
      const timestamp = Math.floor(Date.now() / 1000);
      await postCallback(webhookUrl, body, {
        'wave-signature': `t=${timestamp},v1=${signWaveBody(options.webhookSecret, timestamp, body)}`,
      });
    }
  }

  async function pay(id: string, result: string, deliveries: number): Promise<FakeAnswer> {
    const session = sessions.get(id);
    if (!session) return apiError(404, 'checkout-session-not-found', 'Checkout session not found');
    if (session.checkout_status !== 'open')
      return apiError(409, 'checkout-session-closed', 'Session is closed');
    if (Date.parse(session.when_expires) < Date.now()) {
      session.checkout_status = 'expired';
      return apiError(409, 'checkout-session-expired', 'Session has expired');
    }
    if (result === 'succeeded') {
      Object.assign(session, {
        checkout_status: 'complete',
        payment_status: 'succeeded',
        transaction_id: `T_${randomBytes(5).toString('hex').toUpperCase()}`,
        when_completed: new Date().toISOString(),
      });
      await sendEvent('checkout.session.completed', session, deliveries);
    } else {
      // A failed attempt leaves the session open for another; the service takes the first outcome.
      session.last_payment_error = {
        code: result === 'insufficient_funds' ? 'insufficient-funds' : 'blocked-account',
        message: 'The payment could not be made',
      };
      session.payment_status = 'cancelled';
      await sendEvent('checkout.session.payment_failed', session, deliveries);
    }
    return { status: 200, body: session };
  }

  function createSession(request: FakeRequest): FakeAnswer {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const details: { loc: string[]; msg: string }[] = [];
    if (typeof body.amount !== 'string' || !amountPattern.test(body.amount))
      details.push({ loc: ['amount'], msg: 'amount must be a positive whole number of francs, as a string' });
    if (body.currency !== 'XOF') details.push({ loc: ['currency'], msg: 'currency must be XOF' });
    for (const field of ['success_url', 'error_url'])
      if (typeof body[field] !== 'string' || !/^https?:\/\//.test(body[field] as string))
        details.push({ loc: [field], msg: `${field} must be a URL` });
    if (details.length > 0)
      return { status: 400, body: { code: 'request-validation-error', message: 'Invalid request', details } };
    const id = `cos-${randomBytes(8).toString('hex')}`;
    const now = Date.now();
    const session: WaveCheckoutSession = {
      id,
      amount: body.amount as string,
      currency: 'XOF',
      checkout_status: 'open',
      payment_status: 'processing',
      client_reference: typeof body.client_reference === 'string' ? body.client_reference : null,
      last_payment_error: null,
      wave_launch_url: `${selfUrl}/c/${id}`,
      success_url: body.success_url as string,
      error_url: body.error_url as string,
      transaction_id: null,
      when_created: new Date(now).toISOString(),
      when_expires: new Date(now + (options.sessionMinutes ?? 30) * 60_000).toISOString(),
      when_completed: null,
    };
    sessions.set(id, session);
    return { status: 200, body: session };
  }

  function createPayout(request: FakeRequest): FakeAnswer {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !key)
      return apiError(400, 'missing-idempotency-key', 'The idempotency-key header is required');
    const earlier = payoutsByKey.get(key);
    if (earlier) return { status: 200, body: payouts.get(earlier) };
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.receive_amount !== 'string' || !amountPattern.test(body.receive_amount))
      return apiError(400, 'request-validation-error', 'receive_amount must be a whole number of francs');
    if (body.currency !== 'XOF') return apiError(400, 'request-validation-error', 'currency must be XOF');
    if (typeof body.mobile !== 'string' || !/^\+\d{8,15}$/.test(body.mobile))
      return apiError(400, 'request-validation-error', 'mobile must be in international format');
    const suffix = body.mobile.slice(-2);
    const failure =
      suffix === '02'
        ? { error_code: 'blocked-account', error_message: 'The recipient account is blocked' }
        : suffix === '03'
          ? { error_code: 'recipient-limit-exceeded', error_message: 'The recipient would exceed a limit' }
          : null;
    const payout: WavePayout = {
      id: `pt-${randomBytes(8).toString('hex')}`,
      currency: 'XOF',
      receive_amount: body.receive_amount,
      fee: String(Math.ceil(Number(body.receive_amount) / 100)),
      mobile: body.mobile,
      name: typeof body.name === 'string' ? body.name : undefined,
      client_reference: typeof body.client_reference === 'string' ? body.client_reference : null,
      status: failure ? 'failed' : suffix === '04' ? 'processing' : 'succeeded',
      timestamp: new Date().toISOString(),
      payout_error: failure,
    };
    payouts.set(payout.id, payout);
    payoutsByKey.set(key, payout.id);
    return { status: 200, body: payout };
  }

  const payerPage = (
    session: WaveCheckoutSession,
  ) => `<!doctype html><html lang="fr"><head><meta charset="utf-8">
<title>Wave</title></head><body><h1>Payer ${session.amount} F CFA</h1>
<form method="post" action="/c/${session.id}/pay"><input type="hidden" name="result" value="succeeded"><button>Payer</button></form>
<form method="post" action="/c/${session.id}/pay"><input type="hidden" name="result" value="failed"><button>Refuser</button></form>
</body></html>`;

  const server = await startFakeServer(async (request) => {
    const { method, path } = request;
    let match: RegExpMatchArray | null;
    // The payer's side and the fake's controls carry no API key.
    match = path.match(/^\/c\/([\w-]+)$/);
    if (match && method === 'GET') {
      const session = sessions.get(match[1] as string);
      return session ? { status: 200, body: payerPage(session) } : { status: 404, body: 'Not found' };
    }
    match = path.match(/^\/c\/([\w-]+)\/pay$/);
    if (match && method === 'POST') {
      const result = (request.body as { result?: string }).result ?? 'succeeded';
      const answer = await pay(match[1] as string, result, 1);
      const session = sessions.get(match[1] as string);
      if (answer.status !== 200 || !session) return answer;
      return {
        status: 303,
        headers: { location: result === 'succeeded' ? session.success_url : session.error_url },
      };
    }
    match = path.match(/^\/_fake\/sessions\/([\w-]+)\/pay$/);
    if (match) {
      const { result = 'succeeded', deliveries = 1 } = (request.body ?? {}) as {
        result?: string;
        deliveries?: number;
      };
      return pay(match[1] as string, result, deliveries);
    }
    match = path.match(/^\/_fake\/sessions\/([\w-]+)\/expire$/);
    if (match) {
      const session = sessions.get(match[1] as string);
      if (!session) return apiError(404, 'checkout-session-not-found', 'Checkout session not found');
      session.checkout_status = 'expired';
      session.when_expires = new Date().toISOString();
      return { status: 200, body: session };
    }
    match = path.match(/^\/_fake\/payouts\/([\w-]+)\/settle$/);
    if (match) {
      const payout = payouts.get(match[1] as string);
      if (!payout) return apiError(404, 'payout-not-found', 'Payout not found');
      const { status } = request.body as { status: 'succeeded' | 'failed' };
      payout.status = status;
      if (status === 'failed')
        payout.payout_error = { error_code: 'blocked-account', error_message: 'Blocked' };
      return { status: 200, body: payout };
    }
    if (path === '/_fake/state') {
      return {
        status: 200,
        body: { sessions: [...sessions.values()], payouts: [...payouts.values()], eventCount },
      };
    }

    if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return request.headers.authorization
        ? apiError(401, 'invalid-auth', 'Invalid API key')
        : apiError(401, 'missing-auth-header', 'Authorization header missing');
    }
    if (path === '/v1/checkout/sessions' && method === 'POST') return createSession(request);
    match = path.match(/^\/v1\/checkout\/sessions\/([\w-]+)$/);
    if (match && method === 'GET') {
      const session = sessions.get(match[1] as string);
      if (!session) return apiError(404, 'checkout-session-not-found', 'Checkout session not found');
      if (session.checkout_status === 'open' && Date.parse(session.when_expires) < Date.now())
        session.checkout_status = 'expired';
      return { status: 200, body: session };
    }
    match = path.match(/^\/v1\/checkout\/sessions\/([\w-]+)\/refund$/);
    if (match && method === 'POST') {
      const session = sessions.get(match[1] as string);
      if (!session) return apiError(404, 'checkout-session-not-found', 'Checkout session not found');
      if (session.payment_status !== 'succeeded')
        return apiError(
          409,
          'checkout-refund-failed',
          'Only a paid session not refunded yet can be refunded',
        );
      session.payment_status = 'refunded';
      return { status: 200, body: {} };
    }
    if (path === '/v1/payout' && method === 'POST') return createPayout(request);
    if (path === '/v1/payouts/search' && method === 'GET') {
      const reference = request.query.get('client_reference');
      return {
        status: 200,
        body: { result: [...payouts.values()].filter((p) => p.client_reference === reference) },
      };
    }
    match = path.match(/^\/v1\/payout\/([\w-]+)$/);
    if (match && method === 'GET') {
      const payout = payouts.get(match[1] as string);
      return payout ? { status: 200, body: payout } : apiError(404, 'payout-not-found', 'Payout not found');
    }
    return apiError(404, 'not-found', 'Not found');
  }, options.port);
  selfUrl = server.url;
  return {
    ...server,
    sessions,
    payouts,
    /** Registers the webhook URL anew, as in the Business Portal (the local host knows it late). */
    setWebhookUrl: (url: string) => {
      webhookUrl = url;
    },
  };
}

export type WaveFake = Awaited<ReturnType<typeof startWaveFake>>;
