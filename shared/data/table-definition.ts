/**
 * The single table, declared once. The CDK stack (`infra/constructs/data.ts`) and the local host
 * (`infra/local/dynamodb.ts`) both build the table from this declaration, so they cannot drift.
 *
 * Keys are generic (`pk`, `sk`, `gsi1pk`, `gsi1sk`): each entity module in this folder states the
 * key layout it uses and the access patterns it serves.
 */
export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** All attributes are projected: the indexes serve listings that return whole records. */
  globalSecondaryIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  ] as const satisfies readonly IndexDefinition[],
  /** Epoch seconds; DynamoDB deletes the item some time after (idempotency records, sessions). */
  timeToLiveAttribute: 'ttl',
  /**
   * The stream carries every change with its before and after: payment completions are read from
   * it as their webhook events (shared/operations/stream-dispatch.ts).
   */
  streamViewType: 'NEW_AND_OLD_IMAGES',
} as const;

/** Key attributes are strings throughout. */
export const keyAttributeType = 'S';
