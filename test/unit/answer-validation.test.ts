import { describe, expect, it } from 'vitest';
import { AnswerNotInReference, checkAnswer, webhookProblem } from '#test/support/answer-validation.ts';

const store = {
  id: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
  name: 'Boutique Awa Plateau',
  currency: 'XOF',
  country: 'CI',
  createdAt: '2026-11-02T09:15:00.000Z',
};

const answer = (status: number, body: unknown, path = '/partner_api/stores') => ({
  method: 'GET',
  url: `http://127.0.0.1:3000${path}`,
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

describe('checking an answer against the reference', () => {
  it('accepts an answer as published', () => {
    expect(() => checkAnswer(answer(200, [store]))).not.toThrow();
    expect(() =>
      checkAnswer(answer(401, { id: 'unauthorized', message: 'Invalid or missing API key', extras: null })),
    ).not.toThrow();
  });

  it('refuses a status the operation does not publish', () => {
    expect(() => checkAnswer(answer(404, { id: 'not_found', message: 'x', extras: null }))).toThrow(
      /answered 404, which the reference does not publish/,
    );
  });

  it('refuses a body with a field missing, of another type, or not published', () => {
    const { name: _name, ...withoutName } = store;
    expect(() => checkAnswer(answer(200, [withoutName]))).toThrow(AnswerNotInReference);
    expect(() => checkAnswer(answer(200, [{ ...store, currency: 952 }]))).toThrow(AnswerNotInReference);
    expect(() => checkAnswer(answer(200, [{ ...store, secret: 'x' }]))).toThrow(/must NOT have additional/);
  });

  it('refuses an error id the status does not publish', () => {
    expect(() => checkAnswer(answer(401, { id: 'forbidden_action', message: 'x', extras: null }))).toThrow(
      AnswerNotInReference,
    );
  });

  it('checks a dashboard page against the dashboard’s own document, out of the integrators’', () => {
    const page = (status: number) => ({
      method: 'GET',
      url: 'http://127.0.0.1:3000/dashboard',
      status,
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html>',
    });
    expect(() => checkAnswer(page(200))).not.toThrow();
    expect(() => checkAnswer(page(418))).toThrow(/\(dashboardHome\) answered 418/);
    // Its JSON answers too: the gateway's 414 is `bad_request` alone.
    expect(() =>
      checkAnswer(answer(414, { id: 'too_many_requests', message: 'x', extras: null }, '/dashboard')),
    ).toThrow(AnswerNotInReference);
  });

  it('leaves alone what the reference does not describe', () => {
    expect(() => checkAnswer(answer(404, { anything: true }, '/no/such/route'))).not.toThrow();
  });
});

describe('checking a webhook delivery against the reference', () => {
  const event = {
    id: 'bfe37c2f-5b1d-4c1e-9d7a-0d3e6a2f4b55',
    amount: { amount: 1_500_000, currency: 'XOF' },
    fees: { amount: 15_000, currency: 'XOF' },
    status: 'success',
    counterpartLabel: 'Aminata Koné',
    counterpartIdentifier: '+2250700000001',
    paymentMethod: 'wave',
    transactionType: 'payment',
    businessName: 'Boutique Awa',
    storeName: 'Boutique Awa Plateau',
    storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
    description: 'Paiement commande-2042',
    executedAt: '2026-11-20 14:08:55',
    transactionDetails: { id: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11', reference: 'commande-2042' },
  };
  const headers = {
    'svc-event': 'TRANSACTION_COMPLETED',
    'svc-signature': 'a'.repeat(64),
    'svc-webhook-version': '1.0.0',
  };

  it('accepts a delivery as published', () => {
    expect(webhookProblem(headers, JSON.stringify(event))).toBeUndefined();
  });

  it('names an event, a header or a body that differs', () => {
    expect(webhookProblem({ ...headers, 'svc-event': 'PAYOUT_DONE' }, '{}')).toMatch(/not in the reference/);
    expect(webhookProblem({ ...headers, 'svc-webhook-version': '2' }, JSON.stringify(event))).toMatch(
      /Svc-Webhook-Version/,
    );
    const { storeName: _storeName, ...withoutStore } = event;
    expect(webhookProblem(headers, JSON.stringify(withoutStore))).toMatch(/storeName/);
  });
});
