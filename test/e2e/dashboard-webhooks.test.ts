import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';
import {
  backgroundWorkMs,
  DashboardBrowser,
  followed,
  formFields,
  nextCodeOf,
  signInCodesOf,
  signUpOwner,
} from '#test/support/dashboard.ts';
import { expectErrorSummary, theLocalHost } from '#test/support/dashboard-setup.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * The webhooks page and the audit log on the local host over real HTTP: the subscription made,
 * changed and deleted, its secret shown once and rotated, test events that go through the real
 * sender and that the receiver verifies, the delivery log with re-send; and the audit log listing
 * all of it, with its filters.
 */
const { baseUrl } = theLocalHost();
let receiver: WebhookReceiver;

beforeAll(async () => {
  // The test event is not one of the reference's events: the receiver checks signatures only.
  receiver = await startWebhookReceiver(() => 200, false);
});
afterAll(async () => {
  await receiver?.close();
});

const secretOf = (text: string) =>
  /id="webhook-secret" name="webhook-secret" value="([^"]+)"/.exec(text)?.[1] ?? '';
const subscriptionIdOf = (text: string) => /name="subscriptionId" value="([^"]+)"/.exec(text)?.[1] ?? '';

async function saveWebhook(browser: DashboardBrowser, form: Record<string, string>) {
  const csrf = await browser.csrfOf('/dashboard/webhooks');
  return browser.post('/dashboard/webhooks', { csrf, ...form });
}

async function postAction(browser: DashboardBrowser, path: string, form: Record<string, string> = {}) {
  const csrf = await browser.csrfOf('/dashboard/webhooks');
  return browser.post(path, { csrf, ...form });
}

describe('the webhooks page', () => {
  it('sets the subscription, sends signed test events in either body format, rotates the secret, re-sends, and the audit log lists it all', async () => {
    const owner = await signUpOwner(baseUrl);
    const empty = await owner.browser.get('/dashboard/webhooks');
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('Créer l’abonnement');

    const refused = await saveWebhook(owner.browser, {
      url: 'ftp://example.com/hook',
      name: '',
      bodyFormat: 'flat',
    });
    expectErrorSummary(refused, 400, 'url', 'events');

    const created = await saveWebhook(owner.browser, {
      url: receiver.url,
      name: 'Caisse <i>centrale</i>',
      bodyFormat: 'flat',
      'event.TRANSACTION_COMPLETED': 'on',
      'event.REFUND_COMPLETED': 'on',
    });
    // Post, then redirect: the secret is shown once by the GET the 303 leads to; a reload, never again.
    expect(created.status, created.text.slice(0, 400)).toBe(303);
    const shown = await followed(owner.browser, created);
    expect(shown.status).toBe(200);
    const secret = secretOf(shown.text);
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const reloaded = await followed(owner.browser, created);
    expect(reloaded.status).toBe(200);
    expect(reloaded.text).not.toContain(secret);
    expect(reloaded.text).toContain('déjà été affiché une fois');
    const page = await owner.browser.get('/dashboard/webhooks');
    expect(page.text).not.toContain(secret);
    expect(page.text).toContain('Caisse &lt;i&gt;centrale&lt;/i&gt;');
    expect(page.text).not.toContain('<i>centrale');
    const subscriptionId = subscriptionIdOf(page.text);

    // A second subscription is refused, as for a provider.
    const second = await saveWebhook(owner.browser, {
      url: receiver.url,
      name: 'Autre',
      bodyFormat: 'flat',
      'event.TRANSACTION_COMPLETED': 'on',
    });
    expect(second.status).toBe(409);

    const had = receiver.received.length;
    expect((await postAction(owner.browser, '/dashboard/webhooks/test')).status).toBe(303);
    const [flat] = (await receiver.waitFor(had + 1, backgroundWorkMs)).slice(had);
    expect(flat?.headers['svc-event']).toBe('WEBHOOK_TEST');
    expect(verifyWebhookSignature(flat?.body ?? '', flat?.headers['svc-signature'] as string, secret)).toBe(
      true,
    );
    expect(JSON.parse(flat?.body.toString() ?? '{}')).toMatchObject({
      test: true,
      businessName: 'Maquis Aïcha',
    });

    const changed = await saveWebhook(owner.browser, {
      subscriptionId,
      url: receiver.url,
      name: 'Caisse centrale',
      bodyFormat: 'envelope',
      'event.TRANSACTION_COMPLETED': 'on',
    });
    expect(changed.status).toBe(303);
    expect((await postAction(owner.browser, '/dashboard/webhooks/test')).status).toBe(303);
    const [enveloped] = (await receiver.waitFor(had + 2, backgroundWorkMs)).slice(had + 1);
    expect(
      verifyWebhookSignature(enveloped?.body ?? '', enveloped?.headers['svc-signature'] as string, secret),
    ).toBe(true);
    expect(JSON.parse(enveloped?.body.toString() ?? '{}')).toMatchObject({
      event: 'WEBHOOK_TEST',
      data: { test: true },
    });

    // A new secret is asked for first: the confirmation (a GET) changes nothing; its button does.
    const askRotate = await owner.browser.get('/dashboard/webhooks/rotate-secret');
    expect(askRotate.status).toBe(200);
    expect(askRotate.text).toContain('Générer un nouveau secret ?');
    expect(askRotate.text).toContain('l’ancien secret ne pourra pas être rétabli');
    const rotateForm = formFields(askRotate.text, '/dashboard/webhooks/rotate-secret');
    expect(rotateForm).toEqual({ csrf: expect.any(String), subscriptionId });
    const rotated = await owner.browser.post('/dashboard/webhooks/rotate-secret', rotateForm);
    expect(rotated.status).toBe(303);
    const newSecret = secretOf((await followed(owner.browser, rotated)).text);
    expect(newSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newSecret).not.toBe(secret);
    expect((await postAction(owner.browser, '/dashboard/webhooks/test')).status).toBe(303);
    const [signedAnew] = (await receiver.waitFor(had + 3, backgroundWorkMs)).slice(had + 2);
    const signature = signedAnew?.headers['svc-signature'] as string;
    expect(verifyWebhookSignature(signedAnew?.body ?? '', signature, newSecret)).toBe(true);
    expect(verifyWebhookSignature(signedAnew?.body ?? '', signature, secret)).toBe(false);

    // The log: three deliveries, each with its attempt; the oldest sent again, the same bytes.
    const log = await owner.browser.get('/dashboard/webhooks');
    const deliveryIds = [...log.text.matchAll(/data-delivery-id="([^"]+)"/g)].map(
      (match) => match[1] as string,
    );
    expect(deliveryIds).toHaveLength(3);
    expect(log.text).toContain('Livré');
    const oldest = deliveryIds.at(-1) as string;
    expect((await postAction(owner.browser, `/dashboard/webhooks/deliveries/${oldest}/resend`)).status).toBe(
      303,
    );
    const [again] = (await receiver.waitFor(had + 4, backgroundWorkMs)).slice(had + 3);
    expect(again?.body.toString()).toBe(flat?.body.toString());

    // Another business's session cannot re-send this business's delivery, nor delete its subscription.
    const stranger = await signUpOwner(baseUrl);
    expect(
      (await postAction(stranger.browser, `/dashboard/webhooks/deliveries/${oldest}/resend`)).status,
    ).toBe(404);
    expect(
      (await postAction(stranger.browser, '/dashboard/webhooks/delete', { subscriptionId })).status,
    ).toBe(404);
    expect(subscriptionIdOf((await owner.browser.get('/dashboard/webhooks')).text)).toBe(subscriptionId);

    // Deleting is asked for first; the stranger cannot even see the question.
    expect((await stranger.browser.get('/dashboard/webhooks/delete')).status).toBe(404);
    const askDelete = await owner.browser.get('/dashboard/webhooks/delete');
    expect(askDelete.status).toBe(200);
    expect(askDelete.text).toContain('Supprimer l’abonnement aux webhooks ?');
    expect(subscriptionIdOf((await owner.browser.get('/dashboard/webhooks')).text)).toBe(subscriptionId);
    const deleted = await owner.browser.post(
      '/dashboard/webhooks/delete',
      formFields(askDelete.text, '/dashboard/webhooks/delete'),
    );
    expect(deleted.status).toBe(303);
    const afterDelete = await followed(owner.browser, deleted);
    expect(afterDelete.text).toContain('L’abonnement a été supprimé');
    expect(afterDelete.text).toContain('Créer l’abonnement');
    expect((await owner.browser.get('/dashboard/webhooks/delete')).status).toBe(404);

    // Someone tries a wrong code on the owner's phone: the log records it, with the address.
    const intruder = new DashboardBrowser(baseUrl);
    const codes = (await signInCodesOf(baseUrl, owner.phone)).length;
    expect((await intruder.post('/dashboard/sign-in', { phone: owner.phone })).status).toBe(303);
    const code = await nextCodeOf(baseUrl, owner.phone, codes);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await intruder.post('/dashboard/sign-in/code', { code: wrong })).status).toBe(400);

    const audit = await owner.browser.get('/dashboard/audit?lang=en');
    expect(audit.status).toBe(200);
    const actions = [...audit.text.matchAll(/data-action="([^"]+)"/g)].map((match) => match[1]);
    expect(actions).toEqual([
      'sign_in_code_failed',
      'webhook_deleted',
      'webhook_delivery_resent',
      'webhook_test_sent',
      'webhook_secret_rotated',
      'webhook_test_sent',
      'webhook_changed',
      'webhook_test_sent',
      'webhook_created',
      'sign_in',
    ]);
    expect(audit.text).toContain('Aïcha Traoré');
    expect(audit.text).toContain('Wrong sign-in code');
    const filtered = await owner.browser.get('/dashboard/audit?action=webhook_test_sent');
    expect([...filtered.text.matchAll(/data-action="([^"]+)"/g)]).toHaveLength(3);
    const ownerMember = /<option value="([0-9a-f-]{36})">Aïcha Traoré<\/option>/.exec(audit.text)?.[1] ?? '';
    const byOwner = await owner.browser.get(`/dashboard/audit?member=${ownerMember}`);
    expect([...byOwner.text.matchAll(/data-action="([^"]+)"/g)]).toHaveLength(10);
    const longAgo = await owner.browser.get('/dashboard/audit?from=2001-01-01&to=2001-12-31');
    expect(longAgo.text).not.toContain('data-action=');
    // Not this business's: the stranger's log holds its own sign-in alone.
    const strangers = await stranger.browser.get('/dashboard/audit');
    expect([...strangers.text.matchAll(/data-action="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'sign_in',
    ]);
  });
});
