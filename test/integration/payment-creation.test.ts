import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, dynamodb, tableName } from '#shared/aws/dynamodb.ts';
import { ceilingMonth, collectionCeiling } from '#shared/domain/ceilings.ts';
import { CollectionCeilingExceeded } from '#shared/errors/payment-requests.ts';
import { createPaymentRequestFor } from '#shared/operations/payment-requests.ts';
import { merchant } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

process.env.SANDBOX = 'true';
const baseUrl = 'http://localhost:0';

type Merchant = Awaited<ReturnType<typeof merchant>>;

const body = (m: Merchant, amountCents: number) => redirectRequestBody(m.store.id, { amountCents });

/** The service's DynamoDB requests made while `run` runs, by command. */
let recording: string[] | undefined;
dynamodb.middlewareStack.add(
  (next, context) => async (args) => {
    recording?.push((context.commandName ?? '').replace(/Command$/, ''));
    return next(args);
  },
  { step: 'initialize', name: 'recordRequests' },
);

async function requestsOf(run: () => Promise<unknown>): Promise<string[]> {
  recording = [];
  try {
    await run();
    return recording;
  } finally {
    recording = undefined;
  }
}

/** What other functions' completions added to the month meanwhile, unseen by this container. */
async function collectElsewhere(m: Merchant, amount: number) {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${m.business.id}`, sk: `COLLECTED#${ceilingMonth(new Date())}` },
      UpdateExpression: 'ADD collected :amount',
      ExpressionAttributeValues: { ':amount': amount },
    }),
  );
}

describe('creating a payment request', () => {
  it('reads the store and the month once, at once; a warm creation then makes only its two puts', async () => {
    const m = await merchant();
    const cold = await requestsOf(() => createPaymentRequestFor(m.caller, body(m, 10_000), baseUrl));
    expect(cold.sort()).toEqual(['GetItem', 'GetItem', 'PutItem', 'PutItem']);
    const warm = await requestsOf(() => createPaymentRequestFor(m.caller, body(m, 10_000), baseUrl));
    expect(warm).toEqual(['PutItem', 'PutItem']);
  });

  it('reads the month again for a request that would come within a tenth of the ceiling, and refuses what passes it', async () => {
    const m = await merchant({ verificationLevel: 1 });
    const ceiling = collectionCeiling(1) as number;
    await createPaymentRequestFor(m.caller, body(m, 10_000), baseUrl);
    // Payments completed in other functions bring the month near the ceiling.
    await collectElsewhere(m, ceiling - 1_000_000);
    const near = body(m, ceiling * 0.9);
    const reads = await requestsOf(() =>
      expect(createPaymentRequestFor(m.caller, near, baseUrl)).rejects.toBeInstanceOf(
        CollectionCeilingExceeded,
      ),
    );
    expect(reads).toEqual(['GetItem']);
  });

  it('counts the requests it let through as collected: the next one near the ceiling is refused', async () => {
    const m = await merchant({ verificationLevel: 1 });
    const ceiling = collectionCeiling(1) as number;
    await createPaymentRequestFor(m.caller, body(m, ceiling - 500_000), baseUrl);
    await collectElsewhere(m, ceiling - 500_000);
    await expect(createPaymentRequestFor(m.caller, body(m, 1_000_000), baseUrl)).rejects.toBeInstanceOf(
      CollectionCeilingExceeded,
    );
  });
});
