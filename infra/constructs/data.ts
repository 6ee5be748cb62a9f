/**
 * The stage's data: the single table, built from shared/data/table-definition.ts, the declaration
 * the local host builds its table from too, so the two cannot drift. The key of the webhook
 * signing secrets stored in it is with the stage's other secrets (secrets.ts).
 *
 * Production's table is encrypted with a key of the stage's own (customer-managed, rotated
 * yearly, kept if the stack goes): its use shows in CloudTrail per caller, can be cut off by
 * disabling the key, and its backups are encrypted with it too. Sandbox stages keep the
 * AWS-managed key, which costs nothing. See docs/operations/backups.md for moving an existing
 * table to the key (an update in place, not a replacement).
 */
import type { Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Stage } from '#infra/constructs/stage.ts';
import { tableKeyAlias, tableNameForStage } from '#infra/naming.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';

export class StageData {
  readonly table: Table;
  /** Production only: the customer-managed key of the table and its backups. */
  readonly tableKey: Key | undefined;

  constructor(stack: Stack, stage: Stage) {
    this.tableKey = stage.production
      ? new Key(stack, 'TableKey', {
          alias: tableKeyAlias(stage.name),
          description: `Encrypts the table of ${tableNameForStage(stage.name)} and its backups`,
          enableKeyRotation: true,
          // Without it the retained table and every backup would be unreadable.
          removalPolicy: stage.removalPolicy,
        })
      : undefined;
    this.table = new Table(stack, 'Table', {
      tableName: tableNameForStage(stage.name),
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      stream: StreamViewType[tableDefinition.streamViewType],
      billingMode: BillingMode.PAY_PER_REQUEST,
      ...(this.tableKey
        ? { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey: this.tableKey }
        : { encryption: TableEncryption.AWS_MANAGED }),
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
