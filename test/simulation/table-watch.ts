import { type AttributeValue, BatchGetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type AuditBreak, emptyScope, type LedgerBooks } from '#shared/audit/ledger-audit.ts';
import { dynamodb, tableName } from '#shared/aws/dynamodb.ts';
import { canonical } from '#test/simulation/determinism.ts';

/**
 * What every write of the run does to the table, seen from outside the service: the items a write
 * touched are read back (consistently) right after it, and each that changed is
 * - a record of the table's stream, with its old and new images (DynamoDB Streams' `NEW_AND_OLD_IMAGES`);
 * - a new version of the books the audit keeps, whose rules are checked at once over what it
 *   touches (its accounts, shards, SMS balances and payments), so a write that breaks the ledger
 *   is named at the very write that broke it.
 */
type Image = Record<string, AttributeValue>;
export interface ItemKey {
  pk: string;
  sk: string;
}

export interface StreamRecord {
  sequence: number;
  /** When the write was made, on the simulated clock. */
  at: number;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  keys: Image;
  oldImage?: Image;
  newImage?: Image;
}

const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

type Marshalled = Record<string, { S?: string } | string>;

/** The keys of the items a write command puts, updates or deletes (tried, even when it failed). */
export function keysWritten(command: string, input: unknown): ItemKey[] {
  const found: ItemKey[] = [];
  const note = (key: Marshalled | undefined) => {
    const text = (value: { S?: string } | string | undefined) =>
      typeof value === 'string' ? value : value?.S;
    const pk = text(key?.pk);
    const sk = text(key?.sk);
    if (pk !== undefined && sk !== undefined && !found.some((k) => k.pk === pk && k.sk === sk))
      found.push({ pk, sk });
  };
  const request = input as Record<string, unknown>;
  if (command === 'PutItemCommand') note(request.Item as Marshalled);
  else if (command === 'UpdateItemCommand' || command === 'DeleteItemCommand')
    note(request.Key as Marshalled);
  else if (command === 'TransactWriteItemsCommand') {
    for (const write of request.TransactItems as Record<string, { Item?: Marshalled; Key?: Marshalled }>[]) {
      note(write.Put?.Item);
      note(write.Update?.Key);
      note(write.Delete?.Key);
    }
  } else if (command === 'BatchWriteItemCommand') {
    for (const writes of Object.values(
      request.RequestItems as Record<
        string,
        { PutRequest?: { Item: Marshalled }; DeleteRequest?: { Key: Marshalled } }[]
      >,
    ))
      for (const write of writes) note(write.PutRequest?.Item ?? write.DeleteRequest?.Key);
  }
  return found;
}

export class TableWatch {
  readonly records: StreamRecord[] = [];
  /** The latest image of every item of the table. */
  private readonly images = new Map<string, { text: string; image: Image }>();
  private sequence = 0;
  onRecord: (record: StreamRecord) => void = () => {};
  /** The audit's breaks, with the write they followed; the run fails on the first. */
  readonly breaks: { after: string; breaks: AuditBreak[] }[] = [];

  constructor(private readonly books: LedgerBooks) {}

  /** Reads the whole table once (the images the first changes are compared with). */
  async load(): Promise<void> {
    let startKey: Image | undefined;
    do {
      const page = await dynamodb.send(
        new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey: startKey }),
      );
      for (const item of page.Items ?? []) {
        const key = { pk: item.pk?.S as string, sk: item.sk?.S as string };
        this.images.set(idOf(key), { text: canonical(item), image: item });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }

  /** Reads back what a write touched; its changes become stream records and new versions of the books. */
  async afterWrite(keys: ItemKey[], what: string): Promise<void> {
    if (keys.length === 0) return;
    const items = await readItems(keys);
    const scope = emptyScope();
    for (const key of keys) {
      const id = idOf(key);
      const after = items.get(id);
      const known = this.images.get(id);
      const afterText = after ? canonical(after) : undefined;
      if (known?.text === afterText) continue;
      const before = known?.image;
      if (after && afterText) this.images.set(id, { text: afterText, image: after });
      else this.images.delete(id);
      const record: StreamRecord = {
        sequence: ++this.sequence,
        at: Date.now(),
        eventName: before ? (after ? 'MODIFY' : 'REMOVE') : 'INSERT',
        keys: { pk: { S: key.pk }, sk: { S: key.sk } },
        ...(before ? { oldImage: before } : {}),
        ...(after ? { newImage: after } : {}),
      };
      this.records.push(record);
      this.onRecord(record);
      const touches = this.books.put(key, after ? unmarshall(after) : undefined);
      for (const account of touches.accounts) scope.accounts.add(account);
      for (const shard of touches.shards) scope.shards.add(shard);
      for (const business of touches.smsBusinesses) scope.smsBusinesses.add(business);
      for (const payment of touches.refundedPayments) scope.refundedPayments.add(payment);
    }
    const breaks = this.books.check(scope);
    if (breaks.length > 0) this.breaks.push({ after: what, breaks });
  }
}

/** Consistent reads of `keys`, a hundred per request, as BatchGetItem allows. */
async function readItems(keys: ItemKey[]): Promise<Map<string, Image>> {
  const items = new Map<string, Image>();
  for (let start = 0; start < keys.length; start += 100) {
    let wanted: Image[] | undefined = keys
      .slice(start, start + 100)
      .map((key) => ({ pk: { S: key.pk }, sk: { S: key.sk } }));
    while (wanted && wanted.length > 0) {
      const table = tableName();
      const answer = await dynamodb.send(
        new BatchGetItemCommand({ RequestItems: { [table]: { Keys: wanted, ConsistentRead: true } } }),
      );
      for (const item of answer.Responses?.[table] ?? [])
        items.set(idOf({ pk: item.pk?.S as string, sk: item.sk?.S as string }), item);
      wanted = answer.UnprocessedKeys?.[table]?.Keys as Image[] | undefined;
    }
  }
  return items;
}
