import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryPrefix } from '#shared/data/query.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import type { Cents } from '#shared/domain/money.ts';

/**
 * A store's automatic settlement (issue 34, item 3): every day at `hour` (UTC), what the store has
 * available above `keepCents` goes to one of the business's payout accounts.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = AUTOSETTLE#<storeId>: the setting, one per store, under its
 *   business (the withdrawals page reads them with the accounts).
 * - gsi1pk = AUTOSETTLE#<hour>, gsi1sk = <businessId>#<storeId>: only while it is on (a sparse
 *   index), so the hourly run reads that hour's settings and nothing else.
 *
 * Access patterns and cost (an item is ~0.4 KB):
 * - set or turn off: a transaction of the Put and its audit entry (4 WCU, and 1 WCU on gsi1 while
 *   on; turning off removes it from the index, 1 WCU there).
 * - the business's settings: one query of its partition (0.5 RCU for a few stores).
 * - the hourly run: one query of gsi1's `AUTOSETTLE#<hour>` partition, paged, eventually
 *   consistent: 0.5 RCU per 4 KB, ~10 settings per RCU, so 10,000 stores settling at one hour cost
 *   ~1,000 RCU for that run and every other hour costs what is set there (never a scan). Then per
 *   setting its mark of the day (1 WCU, 2 with the index). All settings of one hour share one index
 *   partition: a popular hour is read by one run a day, far under a partition's 3,000 RCU/s.
 */
export interface AutomaticSettlement {
  businessId: string;
  storeId: string;
  payoutAccountId: string;
  /** 0–23, UTC: the clock of most of the zone, an hour behind Benin's and Niger's (UTC+1). */
  hour: number;
  /** What stays in the store, in cents. */
  keepCents: Cents;
  enabled: boolean;
  /** Who set it: `member:<id>`; its actions (the withdrawals) are the member's. */
  setBy: string;
  memberId: string;
  /** The service's address when it was set: the providers' callbacks go there. */
  baseUrl: string;
  updatedAt: string;
  /** The UTC day (YYYY-MM-DD) of the last run that dealt with it: a later run of that day skips it. */
  lastRunOn?: string | undefined;
}

export const automaticSettlementKey = (businessId: string, storeId: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `AUTOSETTLE#${storeId}`,
});

const hourPartition = (hour: number) => `AUTOSETTLE#${hour}`;

/** Sets (or turns off) the store's setting, with the writes given (its audit entry) in one transaction. */
export async function putAutomaticSettlement(
  setting: AutomaticSettlement,
  also: GuardedWrite[] = [],
): Promise<void> {
  const { lastRunOn: _dropped, ...kept } = setting;
  await transactWrite([
    {
      write: {
        Put: {
          TableName: tableName(),
          Item: {
            ...automaticSettlementKey(setting.businessId, setting.storeId),
            entity: 'automatic_settlement',
            ...kept,
            // The day's mark is dropped: set at 9 for 14, it runs at 14 today (and pays nothing if
            // the day's withdrawal went already: its reference is the store's and the day's).
            ...(setting.enabled
              ? {
                  gsi1pk: hourPartition(setting.hour),
                  gsi1sk: `${setting.businessId}#${setting.storeId}`,
                }
              : {}),
          },
        },
      },
    },
    ...also,
  ]);
}

export async function getAutomaticSettlement(
  businessId: string,
  storeId: string,
): Promise<AutomaticSettlement | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: automaticSettlementKey(businessId, storeId),
      ConsistentRead: true,
    }),
  );
  return Item ? toSetting(Item) : undefined;
}

/** The business's settings, one per store that has one. */
export async function listAutomaticSettlements(businessId: string): Promise<AutomaticSettlement[]> {
  return (await queryPrefix(`BIZ#${businessId}`, 'AUTOSETTLE#')).map(toSetting);
}

/** The settings that are on at `hour`, a page at a time (`after`: the previous page's last key). */
export async function automaticSettlementsAt(
  hour: number,
  after?: Record<string, unknown>,
  limit = 100,
): Promise<{ settings: AutomaticSettlement[]; next?: Record<string, unknown> | undefined }> {
  const page = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :hour',
      ExpressionAttributeValues: { ':hour': hourPartition(hour) },
      ExclusiveStartKey: after,
      Limit: limit,
    }),
  );
  return { settings: (page.Items ?? []).map(toSetting), next: page.LastEvaluatedKey };
}

/**
 * Marks the setting dealt with on `day`, if it is still on at the same hour (a setting changed
 * meanwhile is left for its new hour). False when it was changed or turned off.
 */
export async function markAutomaticSettlementRun(
  setting: AutomaticSettlement,
  day: string,
): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: automaticSettlementKey(setting.businessId, setting.storeId),
        UpdateExpression: 'SET lastRunOn = :day',
        ConditionExpression: 'enabled = :on AND #hour = :hour AND updatedAt = :updatedAt',
        ExpressionAttributeNames: { '#hour': 'hour' },
        ExpressionAttributeValues: {
          ':day': day,
          ':on': true,
          ':hour': setting.hour,
          ':updatedAt': setting.updatedAt,
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

function toSetting(item: Record<string, unknown>): AutomaticSettlement {
  return {
    businessId: item.businessId as string,
    storeId: item.storeId as string,
    payoutAccountId: item.payoutAccountId as string,
    hour: item.hour as number,
    keepCents: item.keepCents as number,
    enabled: item.enabled === true,
    setBy: item.setBy as string,
    memberId: item.memberId as string,
    baseUrl: item.baseUrl as string,
    updatedAt: item.updatedAt as string,
    lastRunOn: item.lastRunOn as string | undefined,
  };
}
