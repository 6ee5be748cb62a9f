import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, type Body, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);

/** A merchant of its own with `segments` on its SMS balance. */
async function merchantWithSegments(segments: number): Promise<Merchant> {
  const merchant = await newMerchant(dataDir, 'Boutique SMS');
  if (segments > 0)
    await admin(dataDir, 'credit-sms', '--business', merchant.businessId, '--segments', String(segments));
  return merchant;
}

const send = (merchant: Merchant, message: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(
    'POST',
    '/partner_api/messages',
    { ...merchant.headers, ...headers },
    {
      channel: 'sms',
      to: '+2250700000001',
      body: 'Merci pour votre achat',
      reference: `sms-${randomUUID()}`,
      ...message,
    },
  );

const balanceOf = async (merchant: Merchant): Promise<number> =>
  (await call('GET', '/partner_api/messages/account', merchant.headers)).body.smsBalance;

/** Polls the message until `done` holds, as an integration would. */
async function messageWhen(merchant: Merchant, id: string, done: (message: Body) => boolean): Promise<Body> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { status, body } = await call('GET', `/partner_api/messages/${id}`, merchant.headers);
    expect(status).toBe(200);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`message ${id} is still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const settled = (message: Body) => message.status === 'delivered' || message.status === 'failed';

describe('the message account', () => {
  it('is created on first use with zero balances, and shows what the operator credited', async () => {
    const merchant = await merchantWithSegments(0);
    const first = await call('GET', '/partner_api/messages/account', merchant.headers);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.any(String),
      businessId: merchant.businessId,
      smsBalance: 0,
      whatsappBalance: 0,
      createdAt: expect.any(String),
    });
    const topUp = () =>
      admin(
        dataDir,
        'credit-sms',
        '--business',
        merchant.businessId,
        '--segments',
        '25',
        '--entry-id',
        'topup-1',
      );
    const credit = await topUp();
    expect(credit).toMatchObject({ credited: true, smsBalance: 25 });
    // The same top-up again (a retried command) adds nothing.
    const again = await topUp();
    expect(again).toMatchObject({ credited: false, smsBalance: 25 });
    const after = await call('GET', '/partner_api/messages/account', merchant.headers);
    expect(after.body).toEqual({ ...first.body, smsBalance: 25 });
  });
});

describe('sending an SMS', () => {
  // Shared by the validation cases, which must all leave its balance as it was.
  let validationMerchant: Promise<Merchant>;
  beforeAll(() => {
    validationMerchant = merchantWithSegments(2);
  });

  it('is accepted pending with its segments, takes them from the balance, and is delivered', async () => {
    const merchant = await merchantWithSegments(10);
    const reference = `r-${randomUUID().slice(0, 8)}`;
    // ç is outside GSM-7: UCS-2, 45 characters, one part.
    const body = `Reçu ${reference}: 1 500 F CFA payés. Merci !`;
    const { status, body: message } = await send(merchant, { body, reference });
    expect(status).toBe(200);
    expect(message).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      businessId: merchant.businessId,
      channel: 'sms',
      to: '+2250700000001',
      body,
      reference,
      status: 'pending',
      failedReason: null,
      segments: 1,
      createdAt: expect.any(String),
    });
    expect(await balanceOf(merchant)).toBe(9);
    const delivered = await messageWhen(merchant, message.id, settled);
    expect(delivered).toEqual({ ...message, status: 'delivered' });
    // The sandbox phone received it.
    const inbox = await (await fetch(`${config.baseUrl}/__local/sms?lang=en`)).text();
    expect(inbox).toContain(reference);
  });

  it('counts segments: ASCII by 160 and 153, accents outside GSM-7 and emoji by 70 and 67', async () => {
    const merchant = await merchantWithSegments(100);
    const cases: [string, number][] = [
      ['a'.repeat(160), 1],
      ['a'.repeat(161), 2],
      ['Réglé à l’heure'.padEnd(70, '.'), 1], // the curly apostrophe is not GSM-7: UCS-2
      ['ç'.repeat(71), 2],
      ['Merci 🙏', 1],
      ['😀'.repeat(36), 2],
      ['Total 15€ '.repeat(16), 2], // € counts twice: 176 septets
    ];
    let expectedBalance = 100;
    for (const [text, segments] of cases) {
      const { status, body } = await send(merchant, { body: text });
      expect(status, text).toBe(200);
      expect(body.segments, text).toBe(segments);
      expectedBalance -= segments;
    }
    expect(await balanceOf(merchant)).toBe(expectedBalance);
  });

  it('normalises an Ivorian local number to the international form', async () => {
    const merchant = await merchantWithSegments(2);
    const { status, body } = await send(merchant, { to: '07 00 00 00 01' });
    expect(status).toBe(200);
    expect(body.to).toBe('+2250700000001');
  });

  it('gives the segments back, once, when the number fails before the carrier', async () => {
    const merchant = await merchantWithSegments(5);
    const { body: message } = await send(merchant, { to: '+2250700000002', body: 'a'.repeat(200) });
    expect(message.segments).toBe(2);
    const failed = await messageWhen(merchant, message.id, settled);
    expect(failed).toMatchObject({ status: 'failed', failedReason: 'invalid_number' });
    expect(await balanceOf(merchant)).toBe(5);
    // Nothing later gives them back a second time.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await balanceOf(merchant)).toBe(5);
  });

  it('keeps the segments of a message the carrier rejected, and leaves an unconfirmed one sent', async () => {
    const merchant = await merchantWithSegments(2);
    const rejected = (await send(merchant, { to: '+2250700000003' })).body;
    const unconfirmed = (await send(merchant, { to: '+2250700000004' })).body;
    expect(await messageWhen(merchant, rejected.id, settled)).toMatchObject({
      status: 'failed',
      failedReason: 'carrier_rejected',
    });
    expect(
      await messageWhen(merchant, unconfirmed.id, (message) => message.status !== 'pending'),
    ).toMatchObject({
      status: 'sent',
      failedReason: null,
    });
    expect(await balanceOf(merchant)).toBe(0);
  });

  it('accepts exactly the 10 of 100 concurrent sends that fit a balance of 10 segments', async () => {
    const merchant = await merchantWithSegments(10);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        send(merchant, { body: `Code ${index}`, to: '+2250700000004' }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 422)).toHaveLength(90);
    for (const refused of answers.filter((answer) => answer.status === 422))
      expect(refused.body).toMatchObject({ id: 'insufficient_sms_balance' });
    expect(await balanceOf(merchant)).toBe(0);
    const listed = await call('GET', '/partner_api/messages?limit=100', merchant.headers);
    expect(listed.body.total).toBe(10);
  });

  it('refuses a message the balance does not cover, recording nothing', async () => {
    const merchant = await merchantWithSegments(1);
    const { status, body } = await send(merchant, { body: 'a'.repeat(161) });
    expect(status).toBe(422);
    expect(body).toEqual({
      id: 'insufficient_sms_balance',
      message: expect.any(String),
      extras: { segments: 2 },
    });
    expect(await balanceOf(merchant)).toBe(1);
    expect((await call('GET', '/partner_api/messages', merchant.headers)).body.total).toBe(0);
  });

  it('answers 409 to a reference used before', async () => {
    const merchant = await merchantWithSegments(3);
    const reference = `ref-${randomUUID()}`;
    expect((await send(merchant, { reference })).status).toBe(200);
    const second = await send(merchant, { reference, body: 'Another text' });
    expect(second.status).toBe(409);
    expect(second.body.id).toBe('message_exists_with_reference');
    expect(await balanceOf(merchant)).toBe(2);
  });

  it('answers a replay of the same Idempotency-Key with the first answer, charging once', async () => {
    const merchant = await merchantWithSegments(3);
    const key = randomUUID();
    const message = { reference: `idem-${randomUUID()}` };
    const first = await send(merchant, message, { 'Idempotency-Key': key });
    const replay = await send(merchant, message, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(replay).toEqual(first);
    expect(await balanceOf(merchant)).toBe(2);
    const reused = await send(merchant, { reference: `other-${randomUUID()}` }, { 'Idempotency-Key': key });
    expect(reused.status).toBe(422);
    expect(reused.body.id).toBe('idempotency_key_reused');
  });

  it.each([
    [{ channel: 'whatsapp' }, 'channel', 'in'],
    [{ channel: undefined }, 'channel', 'required'],
    [{ to: '12' }, 'to', 'format'],
    [{ to: '+22507000000012345678' }, 'to', 'format'],
    [{ to: undefined }, 'to', 'required'],
    [{ body: '' }, 'body', 'min'],
    [{ body: 'a'.repeat(919) }, 'body', 'max'],
    [{ body: 42 }, 'body', 'type'],
    [{ reference: '' }, 'reference', 'min'],
    [{ reference: 'r'.repeat(101) }, 'reference', 'max'],
  ])('refuses %o with 422 naming %s (rule %s), recording nothing', async (change, field, rule) => {
    const merchant = await validationMerchant;
    const { status, body } = await send(merchant, change);
    expect(status).toBe(422);
    expect(body.id).toBe('validation_error');
    expect(body.extras.errors).toContainEqual({ field, rule, message: expect.any(String) });
    expect(await balanceOf(merchant)).toBe(2);
  });

  it('takes a 918-character body: six parts', async () => {
    const merchant = await merchantWithSegments(6);
    const { status, body } = await send(merchant, { body: 'a'.repeat(918) });
    expect(status).toBe(200);
    expect(body.segments).toBe(6);
  });
});

describe('reading messages', () => {
  it("answers another business's message as not found", async () => {
    const owner = await merchantWithSegments(1);
    const other = await merchantWithSegments(0);
    const { body: message } = await send(owner, {});
    const read = await call('GET', `/partner_api/messages/${message.id}`, other.headers);
    expect(read.status).toBe(404);
    expect(read.body.id).toBe('message_not_found');
    const list = await call('GET', '/partner_api/messages', other.headers);
    expect(list.body).toEqual({ total: 0, perPage: 100, currentPage: 1, data: [] });
  });

  it('lists the business’s messages newest first, by page, and by status', async () => {
    const merchant = await merchantWithSegments(3);
    const sent: Body[] = [];
    for (const to of ['+2250700000001', '+2250700000002', '+2250700000001'])
      sent.push((await send(merchant, { to })).body);
    await messageWhen(merchant, sent[1].id, settled);
    const all = await call('GET', '/partner_api/messages?limit=2', merchant.headers);
    expect(all.body.total).toBe(3);
    expect(all.body.perPage).toBe(2);
    expect(all.body.data.map((message: Body) => message.id)).toEqual([sent[2].id, sent[1].id]);
    const second = await call('GET', '/partner_api/messages?limit=2&page=2', merchant.headers);
    expect(second.body.data.map((message: Body) => message.id)).toEqual([sent[0].id]);
    const failed = await call('GET', '/partner_api/messages?status=failed', merchant.headers);
    expect(failed.body.data.map((message: Body) => message.id)).toEqual([sent[1].id]);
    const bad = await call('GET', '/partner_api/messages?status=lost', merchant.headers);
    expect(bad.status).toBe(422);
    expect(bad.body.extras.errors[0]).toMatchObject({ field: 'status', rule: 'in' });
  });
});
