/**
 * The stage's table (infra/constructs/data.ts): built from the shared table definition, recoverable
 * on every stage, kept with production.
 */
import { describe, expect, it } from 'vitest';
import { tableNameForStage } from '#infra/naming.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import { type Json, resourcesOf } from '#test/support/stage-template-queries.ts';

const { dev, prod } = await synthesizedStages();

describe('the table', () => {
  it('is built from the shared table definition: keys, every GSI, TTL', () => {
    const [, table] = resourcesOf(dev.template, 'AWS::DynamoDB::Table')[0] as [string, Json];
    const props = table.Properties;
    expect(props.TableName).toBe(tableNameForStage('dev'));
    expect(props.KeySchema).toEqual([
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ]);
    expect(props.GlobalSecondaryIndexes).toEqual(
      tableDefinition.globalSecondaryIndexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    expect(props.TimeToLiveSpecification).toEqual({
      AttributeName: tableDefinition.timeToLiveAttribute,
      Enabled: true,
    });
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.SSESpecification).toEqual({ SSEEnabled: true });
  });

  it('has point-in-time recovery on every stage', () => {
    for (const { template } of [dev, prod]) {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      });
    }
  });

  it('survives stack deletion on prod and is deletion-protected', () => {
    prod.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { DeletionProtectionEnabled: true, TableName: tableNameForStage('prod') },
    });
  });

  it('is deleted with the stack on a non-production stage', () => {
    dev.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: { DeletionProtectionEnabled: false },
    });
  });
});
