import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPaymentRequest } from '#shared/data/payment-request.ts';
import { operatorHealthRule } from '#shared/domain/operator-health.ts';
import { OperatorUnavailable, ProviderUnavailable } from '#shared/errors/providers.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { confirmRefund } from '#shared/operations/dashboard-payment-actions.ts';
import { transactionDetailOf } from '#shared/operations/dashboard-transactions.ts';
import { checkTransferForm } from '#shared/operations/dashboard-transfers.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import { forgetOperatorHealth } from '#shared/providers/operator-health.ts';
import { operatorDown, operatorsDownNow, providerFor } from '#shared/providers/routing.ts';
import { sweepPendingCollections } from '#shared/settlement/collection-sweep.ts';
import { type PawapayFake, startPawapayFake } from '#test/fakes/pawapay-fake.ts';
import { startWaveFake, type WaveFake } from '#test/fakes/wave-fake.ts';
import { fakeControl } from '#test/support/fake-control.ts';
import { actingOwnerOf, merchant } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

/**
 * An operator that is down, as the service learns it: a direct adapter (Wave) from its own failed
 * starts, pawaPay from what it publishes; and a pawaPay deposit whose answer is lost, read back by
 * the status check under the id recorded before the call, never paid twice.
 */
const apiKey = 'wave_ci_prod_test-key';
const webhookSecret = 'wave_ci_WHS_test-secret';
const apiToken = randomUUID();
const baseUrl = 'https://pay.example';
let wave: WaveFake;
let pawapay: PawapayFake;

beforeAll(async () => {
  wave = await startWaveFake({ apiKey, webhookSecret, webhookUrl: `${baseUrl}/provider_callbacks/wave` });
  // No callback base: pawaPay's callbacks go nowhere, only the status check can tell.
  pawapay = await startPawapayFake({ apiToken, answerDelayMs: 50 });
  process.env.SANDBOX = 'true';
  process.env.PROVIDER_ROUTES = JSON.stringify({ wave: 'wave', orange: 'pawapay' });
  process.env.WAVE_API_URL = wave.url;
  process.env.WAVE_PROVIDER_SECRET = JSON.stringify({ apiKey, webhookSecret });
  process.env.PAWAPAY_BASE_URL = pawapay.url;
  process.env.PAWAPAY_PROVIDER_SECRET = JSON.stringify({ apiToken });
  process.env.OPERATOR_STATUS_CACHE_SECONDS = '1';
});

afterAll(async () => {
  await wave.close();
  await pawapay.close();
});

const waveControl = fakeControl(() => wave.url);
const pawapayControl = fakeControl(() => pawapay.url);
const senegal = { phone: '+221770000001' };

describe('a direct adapter learns that its operator is down from its own failures', () => {
  it(`refuses Wave after ${operatorHealthRule.failureThreshold} failed starts, and lifts it when a start answers`, async () => {
    const m = await merchant();
    const body = () => redirectRequestBody(m.store.id, { paymentMethod: 'wave', amountCents: 150_000 });
    // A checkout session is never tried twice (wave.ts): one failed call per start.
    await waveControl('/failures', {
      pathPattern: 'checkout',
      kind: '5xx',
      count: operatorHealthRule.failureThreshold,
    });
    for (let failed = 0; failed < operatorHealthRule.failureThreshold; failed++) {
      const request = await createPaymentRequestFor(m.caller, body(), baseUrl);
      await expect(startCollection(request, 'redirect', 'wave', undefined, baseUrl)).rejects.toBeInstanceOf(
        ProviderUnavailable,
      );
    }
    expect(await operatorDown('wave', senegal, 'collection')).toBe(true);
    expect([...(await operatorsDownNow())]).toContain('wave:SN');
    const reference = `order-${randomUUID()}`;
    const refused = createPaymentRequestFor(m.caller, { ...body(), reference }, baseUrl);
    await expect(refused).rejects.toBeInstanceOf(OperatorUnavailable);
    await expect(refused).rejects.toMatchObject({
      id: 'provider_unavailable',
      retryAfterSeconds: operatorHealthRule.retryAfterSeconds,
      extras: { paymentMethod: 'wave' },
    });

    // Wave answers again (a start from elsewhere, the refusal bypassed): the rule lifts at once.
    const started = await providerFor('wave', senegal).startCollection({
      paymentRequestId: randomUUID(),
      collectionId: randomUUID(),
      provider: 'wave',
      amountCents: 150_000,
      currency: 'XOF',
      flow: 'redirect',
      payerPhone: undefined,
      callbackUrl: `${baseUrl}/provider_callbacks/wave`,
      returnUrl: `${baseUrl}/return`,
      baseUrl,
    });
    expect(started.checkoutUrl).toBeTruthy();
    forgetOperatorHealth();
    expect(await operatorDown('wave', senegal, 'collection')).toBe(false);
    // Nothing of the refused request was written: its reference is free.
    const again = await createPaymentRequestFor(m.caller, { ...body(), reference }, baseUrl);
    expect(again.status).toBe('pending');
  });

  it('does not count a refusal (an answer) as a failure', async () => {
    const m = await merchant();
    for (let refused = 0; refused <= operatorHealthRule.failureThreshold; refused++) {
      const request = await createPaymentRequestFor(
        m.caller,
        redirectRequestBody(m.store.id, { paymentMethod: 'wave', amountCents: 150_000 }),
        baseUrl,
      );
      // Wave prompts no phone: refused at once, an answer.
      await expect(startCollection(request, 'direct', 'wave', senegal.phone, baseUrl)).rejects.toMatchObject({
        id: 'third_party_payment_provider_error',
      });
    }
    forgetOperatorHealth();
    expect(await operatorDown('wave', senegal, 'collection')).toBe(false);
  });
});

describe('pawaPay', () => {
  it('refuses an operator it closed for that operation and country only', async () => {
    await pawapayControl('/providers/ORANGE_BFA', { status: 'CLOSED' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await operatorDown('orange', { phone: '+22607000789' }, 'collection')).toBe(true);
      expect(await operatorDown('orange', { phone: '+22607000789' }, 'payout')).toBe(true);
      expect(await operatorDown('orange', { phone: '+22376000789' }, 'collection')).toBe(false);
      const orange = [...(await operatorsDownNow())].filter((pair) => pair.startsWith('orange:'));
      expect(orange).toEqual(['orange:BF']);
    } finally {
      await pawapayControl('/providers/ORANGE_BFA', { status: 'OPERATIONAL' });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await operatorDown('orange', { phone: '+22607000789' }, 'collection')).toBe(false);
  });

  it("tells the dashboard's send-money check step that the beneficiary's operator is down, before any code", async () => {
    const m = await merchant({ verificationLevel: 3 });
    await creditStore(m.store.id, 1_000_000, `credit:${randomUUID()}`);
    const member = actingOwnerOf(m);
    const form = {
      storeId: m.store.id,
      to: 'new' as const,
      contactId: '',
      destinationStoreId: '',
      name: 'Fournisseur',
      paymentMethod: 'orange',
      number: '+226 07 00 07 89',
      amount: '5000',
      description: '',
    };
    expect(await checkTransferForm(member, form)).toHaveProperty('draft');
    await pawapayControl('/providers/ORANGE_BFA', { status: 'CLOSED' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await checkTransferForm(member, form)).toEqual({
        problems: [{ field: 'paymentMethod', rule: 'down', provider: 'orange' }],
      });
      // The confirm step leaves it to the operation, which refuses it before anything is written.
      const checked = await checkTransferForm(member, form, { checkBalance: false });
      expect(checked).toHaveProperty('draft');
    } finally {
      await pawapayControl('/providers/ORANGE_BFA', { status: 'OPERATIONAL' });
    }
    // Past the cached status: the next test finds it open.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  });

  it('settles a deposit whose answers were all lost by the status check, under the id recorded first', async () => {
    const m = await merchant();
    // pawaPay takes the deposit, and every answer to its three tries is lost on the way back.
    await pawapayControl('/failures', { pathPattern: '^/v2/deposits$', kind: 'lost', count: 3 });
    const reference = `order-${randomUUID()}`;
    await expect(
      createPaymentRequestFor(
        m.caller,
        redirectRequestBody(m.store.id, {
          paymentMethod: 'orange',
          amountCents: 300_000,
          reference,
          data: { forceProviderDirect: true, payerPhone: '+22607000789' },
        }),
        baseUrl,
      ),
    ).rejects.toBeInstanceOf(ProviderUnavailable);
    // Three tries, one deposit: the same id each time, the second and third DUPLICATE_IGNORED.
    const deposits = [...pawapay.held.values()].filter(
      (t) => t.payer?.accountDetails.phoneNumber === '22607000789',
    );
    expect(deposits).toHaveLength(1);
    const [deposit] = deposits;
    const paymentRequestId = deposit?.metadata?.paymentRequestId as string;
    const pending = await getPaymentRequest(m.business.id, paymentRequestId, true);
    expect(pending).toMatchObject({ status: 'pending', providerReference: deposit?.depositId, reference });

    // The sweep asks pawaPay once the first poll is due: completed there, completed here.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const report = await sweepPendingCollections(new Date(Date.now() + 61_000));
    expect(report.completed).toBeGreaterThanOrEqual(1);
    expect(await getPaymentRequest(m.business.id, paymentRequestId, true)).toMatchObject({
      status: 'success',
      providerReference: deposit?.depositId,
    });

    // Its refund asked on the dashboard while pawaPay has Orange Burkina closed: said on the page, nothing done.
    const owner = actingOwnerOf(m);
    await creditStore(m.store.id, 1_000_000, `credit:${randomUUID()}`);
    await pawapayControl('/providers/ORANGE_BFA', { status: 'CLOSED' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const detail = await transactionDetailOf(owner, paymentRequestId);
      const refused = confirmRefund(
        owner,
        detail,
        { amountCents: '100000', key: randomUUID() },
        {
          baseUrl,
          sourceIp: '127.0.0.1',
        },
      );
      await expect(refused).rejects.toMatchObject({ problem: { kind: 'operator_down' }, status: 503 });
      expect((await transactionDetailOf(owner, paymentRequestId)).refundableCents).toBe(300_000);
    } finally {
      await pawapayControl('/providers/ORANGE_BFA', { status: 'OPERATIONAL' });
    }
  });
});
