import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditLedger } from '#shared/audit/ledger-audit.ts';
import { dynamodb } from '#shared/aws/dynamodb.ts';
import { createStore, type Store } from '#shared/data/store.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { merchant } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

process.env.SANDBOX = 'true';
const baseUrl = 'http://localhost:0';

type Merchant = Awaited<ReturnType<typeof merchant>>;

/** `pk|sk` of every item the service's DynamoDB client writes while `run` runs. */
let recording: Set<string> | undefined;
dynamodb.middlewareStack.add(
  (next, context) => async (args) => {
    const input = args.input as {
      TransactItems?: Record<string, { Key?: Record<string, unknown>; Item?: Record<string, unknown> }>[];
      Key?: Record<string, unknown>;
      Item?: Record<string, unknown>;
    };
    if (!/^(TransactWriteItems|PutItem|UpdateItem|DeleteItem)Command$/.test(context.commandName ?? ''))
      return next(args);
    const actions = input.TransactItems?.flatMap((item) => Object.values(item)) ?? [input];
    for (const action of actions) {
      const key = action.Key ?? action.Item;
      if (recording && key && 'pk' in key) recording.add(`${key.pk}|${key.sk}`);
    }
    return next(args);
  },
  { step: 'initialize', name: 'recordWrittenKeys' },
);

async function writtenBy(run: () => Promise<unknown>): Promise<Set<string>> {
  recording = new Set();
  try {
    await run();
    return recording;
  } finally {
    recording = undefined;
  }
}

/** Creates and starts a request in `store`, then returns the keys its verified callback writes. */
async function completionKeys(m: Merchant, store: Store): Promise<Set<string>> {
  const request = await createPaymentRequestFor(
    m.caller,
    redirectRequestBody(store.id, { data: { errorUrl: 'myapp://failed' } }),
    baseUrl,
  );
  const started = await startCollection(request, 'redirect', 'wave', '+2250700000001', baseUrl);
  return writtenBy(async () => {
    const completion = await completePayment({
      callbackId: randomUUID(),
      provider: 'wave',
      providerReference: started.providerReference as string,
      paymentRequestId: request.id,
      outcome: 'success',
      payerPhone: '+2250700000001',
    });
    expect(completion.result).toBe('completed');
  });
}

const intersection = (a: Set<string>, b: Set<string>) => [...a].filter((key) => b.has(key));

describe('the completion path', () => {
  it("writes no item that another business's payments write: fees and clearing are sharded per store", async () => {
    const first = await merchant();
    const second = await merchant();
    const a = await completionKeys(first, first.store);
    const b = await completionKeys(second, second.store);
    // The request (its change on the table's stream is the webhook event), the ceiling, the
    // wallet (with its shares of fees and clearing), the list's record and the store's counter.
    expect(a.size).toBe(5);
    expect(b.size).toBe(5);
    expect(intersection(a, b)).toEqual([]);
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it("shares between two stores of one business only the business's own item: its ceiling month", async () => {
    const m = await merchant();
    const other = await createStore({ businessId: m.business.id, name: 'Boutique Cocody' });
    const a = await completionKeys(m, m.store);
    const b = await completionKeys(m, other);
    const month = new Date().toISOString().slice(0, 7);
    expect(intersection(a, b)).toEqual([`BIZ#${m.business.id}|COLLECTED#${month}`]);
  });
});
