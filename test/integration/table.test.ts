import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamodb, tableName } from '#shared/aws/dynamodb.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';

describe('the local table', () => {
  it('is built from the shared declaration: keys, indexes and TTL', async () => {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: tableName() }));
    expect(Table?.KeySchema).toEqual([
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ]);
    expect(
      Table?.GlobalSecondaryIndexes?.map((index) => ({
        name: index.IndexName,
        keys: index.KeySchema?.map((k) => k.AttributeName),
        projection: index.Projection?.ProjectionType,
      })),
    ).toEqual(
      tableDefinition.globalSecondaryIndexes.map((index) => ({
        name: index.name,
        keys: [index.partitionKey, index.sortKey],
        projection: 'ALL',
      })),
    );
    const ttl = await dynamodb.send(new DescribeTimeToLiveCommand({ TableName: tableName() }));
    expect(ttl.TimeToLiveDescription?.AttributeName).toBe(tableDefinition.timeToLiveAttribute);
    expect(ttl.TimeToLiveDescription?.TimeToLiveStatus).toBe('ENABLED');
  });
});
