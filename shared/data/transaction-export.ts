import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { toRecord } from '#shared/data/transaction-list.ts';
import { type TransactionRecord, transactionDay } from '#shared/data/transaction-record.ts';

/**
 * A window of a business's transaction records read from its newest to its oldest, page by page,
 * for the CSV export: the rows the list would show over all its pages, in its order (days newest
 * first, then `<createdAt>#<id>` descending within a day), as of the instant `asOf` (what was
 * recorded later on that day is left out, so an export taken while payments arrive holds no half
 * of anything). Nothing is kept: each page is handed on and dropped, so memory stays flat whatever
 * the window holds.
 *
 * The filters are a DynamoDB FilterExpression: the items they drop are still read (and paid for),
 * but never cross the network to the function. Cost: 0.5 RCU per 4 KB read (eventually
 * consistent), so about 12 RCU per 100 records of ~1 KB; 100,000 records ~12,500 RCU.
 */
export interface TransactionWindow {
  businessId: string;
  /** One store; absent, the business's every store. */
  storeId?: string | undefined;
  startDate: string;
  endDate: string;
  /** ISO instant; records created after it are left out. */
  asOf: string;
  type?: TransactionRecord['type'] | undefined;
  status?: TransactionRecord['status'] | undefined;
  paymentMethod?: string | undefined;
}

/** Records per Query page: ~1 KB each, so a page is about 0.5 MB at most in memory. */
const pageSize = 500;

const dayMs = 24 * 60 * 60 * 1000;
const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - dayMs).toISOString().slice(0, 10);

/** Each page of the window's records, newest first. */
export async function* transactionPagesOf(window: TransactionWindow): AsyncGenerator<TransactionRecord[]> {
  const asOfDay = transactionDay(window.asOf);
  const lastDay = window.endDate < asOfDay ? window.endDate : asOfDay;
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const filterOn = (attribute: string, value: string | undefined) => {
    if (value === undefined) return;
    filters.push(`#${attribute} = :${attribute}`);
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
  };
  filterOn('storeId', window.storeId);
  filterOn('type', window.type);
  filterOn('status', window.status);
  filterOn('paymentMethod', window.paymentMethod);
  for (let day = lastDay; day >= window.startDate; day = dayBefore(day)) {
    // Sort keys are `<createdAt>#<id>`; `~` sorts after every id character.
    const bound = day === asOfDay ? `${window.asOf}#~` : `${day}T23:59:59.999Z#~`;
    let startKey: Record<string, unknown> | undefined;
    do {
      const input: QueryCommandInput = {
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk <= :bound',
        ExpressionAttributeValues: { ':pk': `TXDAY#${window.businessId}#${day}`, ':bound': bound, ...values },
        ...(filters.length > 0
          ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names }
          : {}),
        ScanIndexForward: false,
        Limit: pageSize,
        ExclusiveStartKey: startKey,
      };
      const page = await documentClient.send(new QueryCommand(input));
      const records = (page.Items ?? []).map(toRecord);
      if (records.length > 0) yield records;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
}

/**
 * The title of each of a business's payment links, by id, for the export's "what was sold"
 * column: a payment through a link carries the link's id, not its title. One Query of the
 * business's links (`BIZ#<businessId>`, `PLINK#…`, ~400 bytes a link: about 5 RCU for 100 links),
 * pages of 1 MB dropped as they are read; what stays is an id and a title per link, however many
 * rows the export writes. Read once per export, and only once a row through a link comes up.
 */
export async function paymentLinkTitles(businessId: string): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `BIZ#${businessId}`, ':prefix': 'PLINK#' },
        ProjectionExpression: '#id, #title',
        ExpressionAttributeNames: { '#id': 'id', '#title': 'title' },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? [])
      if (typeof item.id === 'string' && typeof item.title === 'string') titles.set(item.id, item.title);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return titles;
}
