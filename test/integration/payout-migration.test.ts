import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTransferBody } from '#shared/api/transfers.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { findPayout, payoutKey } from '#shared/data/payout.ts';
import { getTransfer } from '#shared/data/transfer.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import { settleSandboxPayout } from '#shared/providers/sandbox.ts';
import { migratePayouts } from '#shared/settlement/payout-migration.ts';
import { merchant } from '#test/support/fixtures.ts';
import { payoutCallback } from '#test/support/payouts.ts';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

describe('payouts recorded before they said what they settle', () => {
  it('get their payout from the migration, once, and then settle by their callback', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 50_000);
    // The sandbox's silent number: the payout waits for the test.
    const transfer = await createTransferFor(
      m.caller,
      createTransferBody.parse({
        storeId: m.store.id,
        amountCents: 10_000,
        currency: 'XOF',
        name: 'Fournisseur',
        paymentMethod: 'mtn',
        identifier: { number: '+2250700000004' },
      }),
      'http://localhost:0',
    );
    // What an older version recorded: the transfer, no payout.
    await documentClient.send(new DeleteCommand({ TableName: tableName(), Key: payoutKey(transfer.id) }));
    expect((await payoutCallback(transfer, 'success')).result).toBe('unknown_transfer');

    const first = await migratePayouts();
    expect(first.written).toBe(1);
    expect(await findPayout(transfer.id)).toMatchObject({ settles: 'transfer', businessId: m.business.id });
    expect((await migratePayouts()).written).toBe(0);

    await settleSandboxPayout(transfer.id, 'success', false);
    expect((await payoutCallback(transfer, 'success')).result).toBe('completed');
    expect((await getTransfer(m.business.id, transfer.id, true))?.status).toBe('success');
  });
});
