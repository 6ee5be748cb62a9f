/**
 * Production's backups (AWS Backup), beside the table's point-in-time recovery (35 days, any
 * second): a daily backup kept 35 days and a monthly one kept a year, each copied to a second
 * vault with a key of its own and a retention lock, so that a backup survives the loss, disabling
 * or scheduled deletion of the table's key, and a mistaken or malicious deletion in the first
 * vault. Both vaults are in the stage's region: a vault in another region needs a stack there,
 * which this one-stack stage does not have (docs/operations/backups.md says how to add it).
 */
import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Stage } from '#infra/constructs/stage.ts';
import { acknowledge } from '#infra/nag.ts';
import { backupCopyVaultName, backupVaultName, stackName } from '#infra/naming.ts';

/** How long each kind of backup is kept, in both vaults. */
export const backupRetention = { daily: Duration.days(35), monthly: Duration.days(365) } as const;

export class TableBackups {
  readonly plan: BackupPlan;
  readonly vault: BackupVault;
  readonly copyVault: BackupVault;

  constructor(stack: Stack, stage: Stage, table: Table, tableKey: Key) {
    // Backups are kept whatever becomes of the stack: a deleted stack is when they are needed.
    this.vault = new BackupVault(stack, 'BackupVault', {
      backupVaultName: backupVaultName(stage.name),
      encryptionKey: tableKey,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const copyKey = new Key(stack, 'BackupCopyKey', {
      description: `Encrypts the copies of the backups of ${stackName(stage.name)}`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.copyVault = new BackupVault(stack, 'BackupCopyVault', {
      backupVaultName: backupCopyVaultName(stage.name),
      encryptionKey: copyKey,
      // Governance mode: no one deletes a copy before its time, nor shortens it, but an
      // administrator with backup:DeleteBackupVaultLockConfiguration can lift the lock.
      lockConfiguration: { minRetention: backupRetention.daily },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.plan = new BackupPlan(stack, 'BackupPlan', {
      backupPlanName: `${stackName(stage.name)}-table`,
      backupVault: this.vault,
    });
    this.plan.addRule(
      new BackupPlanRule({
        ruleName: 'Daily',
        // 02:00 UTC (02:00 in Abidjan and Dakar): the quietest hour of the service.
        scheduleExpression: Schedule.cron({ hour: '2', minute: '0' }),
        deleteAfter: backupRetention.daily,
        copyActions: [{ destinationBackupVault: this.copyVault, deleteAfter: backupRetention.daily }],
      }),
    );
    this.plan.addRule(
      new BackupPlanRule({
        ruleName: 'Monthly',
        scheduleExpression: Schedule.cron({ day: '1', hour: '3', minute: '0' }),
        deleteAfter: backupRetention.monthly,
        copyActions: [{ destinationBackupVault: this.copyVault, deleteAfter: backupRetention.monthly }],
      }),
    );
    const selection = this.plan.addSelection('Table', {
      resources: [BackupResource.fromDynamoDbTable(table)],
    });
    const role = selection.node.tryFindChild('Role');
    if (role) {
      acknowledge(
        role,
        'AwsSolutions-IAM4',
        "AWS Backup's own service policy for taking backups, which AWS keeps current as the service changes; the role is assumable by AWS Backup only and selects this table alone.",
        'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup',
      );
    }
  }
}
