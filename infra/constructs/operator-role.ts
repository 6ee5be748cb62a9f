/**
 * The role operators assume to run the admin command on a deployed stage (docs/operations/admin.md):
 * exactly what the command's subcommands do, and nothing of the stack itself, so that no one writes
 * to the stage's table with their own broad credentials. Any principal of the account whose own
 * policy allows `sts:AssumeRole` on it may assume it (the account decides who, as for every role),
 * for an hour at most; CloudTrail records each session under the operator's own name.
 *
 * It may: read and write the table's items, and scan it (the ledger audit, the orphan report);
 * encrypt a webhook secret with the stage's key, for a business only; register a soundbox in IoT
 * Core (its thing, of the stage's type, a certificate, the stage's device policy); and put a new
 * value into the providers' secrets, never read one.
 */
import { Duration, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { AccountRootPrincipal, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Stage } from '#infra/constructs/stage.ts';
import { acknowledge } from '#infra/nag.ts';
import { devicePolicyName, deviceThingTypeName, operatorRoleName, stackName } from '#infra/naming.ts';
import { webhookSecretContextKeys, webhookSecretPurpose } from '#shared/aws/kms.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';

export interface OperatorResources {
  readonly table: ITable;
  readonly webhookSecretsKey: IKey;
  readonly providerSecrets: Iterable<ISecret>;
}

export class OperatorRole {
  readonly role: Role;

  constructor(stack: Stack, stage: Stage, resources: OperatorResources) {
    const { table, webhookSecretsKey } = resources;
    this.role = new Role(stack, 'OperatorRole', {
      roleName: operatorRoleName(stage.name),
      description: `Runs the admin command (npm run admin -- --stage ${stage.name}) on ${stackName(stage.name)}`,
      assumedBy: new AccountRootPrincipal(),
      maxSessionDuration: Duration.hours(1),
    });
    const allow = (actions: string[], resourceArns: string[], conditions?: Record<string, unknown>) =>
      this.role.addToPolicy(new PolicyStatement({ actions, resources: resourceArns, conditions }));

    allow(
      [
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:Query',
        'dynamodb:Scan',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:ConditionCheckItem',
      ],
      [table.tableArn],
    );
    allow(
      ['dynamodb:Query'],
      tableDefinition.globalSecondaryIndexes.map((index) => `${table.tableArn}/index/${index.name}`),
    );
    if (table.encryptionKey) {
      allow(['kms:Decrypt'], [table.encryptionKey.keyArn], {
        StringEquals: {
          'kms:ViaService': `dynamodb.${stack.region}.amazonaws.com`,
          'kms:EncryptionContext:aws:dynamodb:tableName': table.tableName,
        },
      });
    }
    allow(['kms:Encrypt'], [webhookSecretsKey.keyArn], {
      StringEquals: { [`kms:EncryptionContext:${webhookSecretContextKeys.purpose}`]: webhookSecretPurpose },
      Null: { [`kms:EncryptionContext:${webhookSecretContextKeys.businessId}`]: 'false' },
    });
    const secretArns = [...resources.providerSecrets].map((secret) => secret.secretArn);
    if (secretArns.length > 0) allow(['secretsmanager:PutSecretValue'], secretArns);

    const thingArn = stack.formatArn({ service: 'iot', resource: 'thing', resourceName: '*' });
    allow(['iot:CreateThing', 'iot:AttachThingPrincipal'], [thingArn]);
    allow(
      ['iot:AttachPolicy'],
      [stack.formatArn({ service: 'iot', resource: 'policy', resourceName: devicePolicyName(stage.name) })],
    );
    allow(
      ['iot:CreateThing'],
      [
        stack.formatArn({
          service: 'iot',
          resource: 'thingtype',
          resourceName: deviceThingTypeName(stage.name, stage.production),
        }),
      ],
    );
    allow(['iot:CreateKeysAndCertificate', 'iot:DescribeEndpoint'], ['*']);

    const region = stack.region;
    const account = stack.account;
    acknowledge(
      this.role.node.findChild('DefaultPolicy'),
      'AwsSolutions-IAM5',
      'A soundbox is named by the operator at registration (its thing name is its device id, unknown to the stack): any thing of the account may be created and given a certificate.',
      `Resource::arn:<AWS::Partition>:iot:${region}:${account}:thing/*`,
    );
    acknowledge(
      this.role.node.findChild('DefaultPolicy'),
      'AwsSolutions-IAM5',
      'CreateKeysAndCertificate and DescribeEndpoint act on no resource that exists beforehand, and accept only `*`.',
      'Resource::*',
    );
  }
}
