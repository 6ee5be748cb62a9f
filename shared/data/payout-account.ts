import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryPrefix } from '#shared/data/query.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { beneficiaryKey } from '#shared/domain/contacts.ts';
import type { PayoutAccount } from '#shared/domain/payout-accounts.ts';
import { PayoutAccountExists, PayoutAccountNotFound } from '#shared/errors/payout-accounts.ts';

/**
 * Payout accounts (shared/domain/payout-accounts.ts), under their business.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = PAYOUTACCOUNT#<id>: the account.
 * - pk = BIZ#<businessId>, sk = PAYOUTACCOUNTKEY#<beneficiary key>: the claim that makes one
 *   account per number or bank account (the contacts' beneficiary key), so registering it twice
 *   finds the first rather than restarting its cooling period.
 *
 * Cost (items ~400 bytes): add or remove, a transaction of two writes (4 WCU); get, 0.5 RCU; list,
 * one query (0.5 RCU for about ten accounts).
 */
export const payoutAccountKey = (businessId: string, id: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `PAYOUTACCOUNT#${id}`,
});
const claimKey = (account: Pick<PayoutAccount, 'businessId' | 'paymentMethod' | 'identifier'>) => ({
  pk: `BIZ#${account.businessId}`,
  sk: `PAYOUTACCOUNTKEY#${beneficiaryKey(account.paymentMethod, account.identifier)}`,
});

export async function addPayoutAccountRecord(
  account: PayoutAccount,
  also: GuardedWrite[] = [],
): Promise<void> {
  const table = tableName();
  await transactWrite([
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...claimKey(account), entity: 'payout_account_claim', payoutAccountId: account.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new PayoutAccountExists(),
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...payoutAccountKey(account.businessId, account.id), entity: 'payout_account', ...account },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    ...also,
  ]);
}

export async function getPayoutAccount(businessId: string, id: string): Promise<PayoutAccount | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: payoutAccountKey(businessId, id), ConsistentRead: true }),
  );
  return Item ? toPayoutAccount(Item) : undefined;
}

/** The business's accounts, oldest first. */
export async function listPayoutAccounts(businessId: string): Promise<PayoutAccount[]> {
  const items = await queryPrefix(`BIZ#${businessId}`, 'PAYOUTACCOUNT#');
  return items.map(toPayoutAccount).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Removes the account and its claim (with `also`, its audit entry); a second removal finds it gone (404). */
export async function removePayoutAccountRecord(
  account: PayoutAccount,
  also: GuardedWrite[] = [],
): Promise<void> {
  const table = tableName();
  await transactWrite([
    {
      write: {
        Delete: {
          TableName: table,
          Key: payoutAccountKey(account.businessId, account.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      onConditionFailed: () => new PayoutAccountNotFound(),
    },
    { write: { Delete: { TableName: table, Key: claimKey(account) } } },
    ...also,
  ]);
}

function toPayoutAccount(item: Record<string, unknown>): PayoutAccount {
  return {
    id: item.id as string,
    businessId: item.businessId as string,
    paymentMethod: item.paymentMethod as PayoutAccount['paymentMethod'],
    identifier: item.identifier as PayoutAccount['identifier'],
    holder: item.holder as string,
    usableFrom: item.usableFrom as string,
    addedBy: item.addedBy as string,
    createdAt: item.createdAt as string,
  };
}
