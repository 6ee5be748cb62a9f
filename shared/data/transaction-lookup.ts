import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { paymentReferenceKey } from '#shared/data/payment-reference.ts';
import { type TransactionRecord, transactionDay } from '#shared/data/transaction-record.ts';

/**
 * Reading transaction-list records other than a page of the API's list (shared/data/
 * transaction-list.ts): one record by its key, a paid request's record, and a window of days read
 * newest first through a filter, for the dashboard's filters and search the API does not have.
 *
 * The records have no index by id, type, status, method or payer (each would cost a write unit on
 * every line, DESIGN §4), so:
 * - by key (the record's `createdAt` and `id`, which the dashboard's own links carry): GetItem,
 *   0.5 RCU;
 * - a payment request's record, from its transaction's `executedAt` (the record's `createdAt` to
 *   the second): one Query over that second of its day, ~0.5 RCU;
 * - a filtered window: one Query per day of the window (at most 91), newest first, until enough
 *   matches are found. A filter drops what it reads without saving its cost: a window read to its
 *   end costs ~0.5 RCU per 4 KB of the business's records in it (a record is under 1 KB, so about
 *   0.5 RCU per 8 records, 12,500 RCU for 100,000 records in 90 days), at most a window's worth.
 */
export interface RecordFilter {
  /** `attr = value` conditions, all of them. */
  equals?: Readonly<Record<string, string>>;
  /**
   * At least one of these `attr = value` (a search that may match several attributes), or
   * `begins_with` (`prefix`), or `contains` (`within`: a part of a name or a description).
   */
  anyOf?: readonly { attribute: string; value: string; prefix?: boolean; within?: boolean }[];
}

const sortKeyTop = (instant: string) => `${instant}#~`;

function toRecord(item: Record<string, unknown>): TransactionRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...record } = item;
  return record as unknown as TransactionRecord;
}

/** The payment request that claimed `reference` in the business, if one did: GetItem, 0.5 RCU. */
export async function requestIdOfReference(
  businessId: string,
  reference: string,
): Promise<string | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: paymentReferenceKey(businessId, reference) }),
  );
  return Item?.paymentRequestId as string | undefined;
}

/** The record written at `createdAt` with `id`, of the business: its exact key. */
export async function getTransactionRecord(
  businessId: string,
  createdAt: string,
  id: string,
): Promise<TransactionRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: { pk: `TXDAY#${businessId}#${transactionDay(createdAt)}`, sk: `${createdAt}#${id}` },
    }),
  );
  return Item ? toRecord(Item) : undefined;
}

/**
 * The payment line of a completed or ended request: its transaction's `executedAt`
 * (`YYYY-MM-DD HH:mm:ss`, UTC) is the record's `createdAt` to the second.
 */
export async function recordOfTransaction(
  businessId: string,
  transaction: { id: string; executedAt: string },
): Promise<TransactionRecord | undefined> {
  const second = transaction.executedAt.replace(' ', 'T');
  const [found] = await queryDay(businessId, transactionDay(second), {
    between: [second, sortKeyTop(`${second}.999Z`)],
    filter: { equals: { id: transaction.id } },
    want: 1,
  });
  return found;
}

function filterExpression(filter: RecordFilter) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses: string[] = [];
  let n = 0;
  const condition = (attribute: string, value: string, prefix = false, within = false) => {
    n++;
    const path = attribute
      .split('.')
      .map((part, index) => {
        names[`#a${n}_${index}`] = part;
        return `#a${n}_${index}`;
      })
      .join('.');
    values[`:v${n}`] = value;
    if (within) return `contains(${path}, :v${n})`;
    return prefix ? `begins_with(${path}, :v${n})` : `${path} = :v${n}`;
  };
  for (const [attribute, value] of Object.entries(filter.equals ?? {}))
    clauses.push(condition(attribute, value));
  if (filter.anyOf?.length) {
    clauses.push(
      `(${filter.anyOf.map((term) => condition(term.attribute, term.value, term.prefix, term.within)).join(' OR ')})`,
    );
  }
  return clauses.length === 0
    ? {}
    : {
        FilterExpression: clauses.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      };
}

async function queryDay(
  businessId: string,
  day: string,
  options: { between?: [string, string]; filter: RecordFilter; want: number },
): Promise<TransactionRecord[]> {
  const filter = filterExpression(options.filter);
  const items: TransactionRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const input: QueryCommandInput = {
      TableName: tableName(),
      KeyConditionExpression: options.between ? 'pk = :pk AND sk BETWEEN :low AND :high' : 'pk = :pk',
      ...filter,
      ExpressionAttributeValues: {
        ...(filter.ExpressionAttributeValues ?? {}),
        ':pk': `TXDAY#${businessId}#${day}`,
        ...(options.between ? { ':low': options.between[0], ':high': options.between[1] } : {}),
      },
      ScanIndexForward: false,
      ExclusiveStartKey: startKey,
    };
    const page = await documentClient.send(new QueryCommand(input));
    for (const item of page.Items ?? []) items.push(toRecord(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < options.want);
  return items.slice(0, options.want);
}

/** The days from `endDay` down to `startDay` (both `YYYY-MM-DD`, UTC), newest first. */
export function daysOf(startDay: string, endDay: string): string[] {
  const days: string[] = [];
  for (
    let at = Date.parse(`${endDay}T00:00:00Z`);
    at >= Date.parse(`${startDay}T00:00:00Z`);
    at -= 86_400_000
  ) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * Up to `want` records of the business matching `filter`, newest first, from the days of the
 * window (newest first), stopping as soon as `want` are found; created at or before `asOf`.
 */
export async function filteredRecords(
  businessId: string,
  window: { startDate: string; endDate: string; asOf: string },
  filter: RecordFilter,
  want: number,
): Promise<TransactionRecord[]> {
  const found: TransactionRecord[] = [];
  for (const day of daysOf(window.startDate, window.endDate)) {
    if (found.length >= want) break;
    if (day > window.asOf.slice(0, 10)) continue;
    found.push(
      ...(await queryDay(businessId, day, {
        between: [
          day,
          sortKeyTop(window.asOf < `${day}T23:59:59.999Z` ? window.asOf : `${day}T23:59:59.999Z`),
        ],
        filter,
        want: want - found.length,
      })),
    );
  }
  return found;
}
