/**
 * The stage's data: the single table, built from shared/data/table-definition.ts, the declaration
 * the local host builds its table from too, so the two cannot drift. The key of the webhook
 * signing secrets stored in it is with the stage's other secrets (secrets.ts).
 */
import type { Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Stage } from '#infra/constructs/stage.ts';
import { tableNameForStage } from '#infra/naming.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';

export class StageData {
  readonly table: Table;

  constructor(stack: Stack, stage: Stage) {
    this.table = new Table(stack, 'Table', {
      tableName: tableNameForStage(stage.name),
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      stream: StreamViewType[tableDefinition.streamViewType],
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      // On every stage: a bad migration on staging is also worth undoing.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: stage.production,
      removalPolicy: stage.removalPolicy,
    });
    for (const index of tableDefinition.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }
  }
}
