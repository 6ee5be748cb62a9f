import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import {
  backupCopyVaultName,
  backupVaultName,
  operatorRoleName,
  providerSecretName,
  stackName,
} from '#infra/naming.ts';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import { readRegistryFile, StageRegistryError, stageEntry } from '#infra/stage-registry.ts';
import { tableActions } from '#shared/catalogue/access.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';
import { stageTemplateOf } from '#test/support/stage-template.ts';

// Issue 27's hardening, asserted on the production stage as `cdk synth -c stage=prod` builds it:
// one synth for the file.

const registry = readRegistryFile() as Record<string, Record<string, unknown>>;

const app = new App({
  context: {
    'aws:cdk:bundling-stacks': [],
    stages: registry,
    stage: 'prod',
    [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false,
  },
});
const stack = buildPaymentsApp(app);
const prod = stageTemplateOf(stack);

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;
const resourcesOf = (template: Template, type: string): [string, Json][] =>
  Object.entries(template.findResources(type));
const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const arnText = (value: Json) => JSON.stringify(value);

const deployed = functionEntries.filter(([, fn]) => !fn.sandboxOnly);
const itemActions = new Set(tableActions.map((action) => `dynamodb:${action}`));

function functionOf(name: string): Json {
  const found = resourcesOf(prod, 'AWS::Lambda::Function').filter(
    ([, fn]) => fn.Properties.FunctionName === `${stackName('prod')}-${name}`,
  );
  expect(found, name).toHaveLength(1);
  return (found[0] as [string, Json])[1];
}

/** Every statement of the policies attached to a role, by the role's logical id. */
function roleStatements(roleId: string): Json[] {
  return resourcesOf(prod, 'AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: Json) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
}
const statementsOf = (fn: Json) => roleStatements(fn.Properties.Role['Fn::GetAtt'][0]);

describe('production: stages apart', () => {
  it("puts every device topic under prod/: the device policy, the IoT rules and the functions' publish grants", () => {
    const [[, policy]] = resourcesOf(prod, 'AWS::IoT::Policy') as [[string, Json]];
    const topicResources = (policy.Properties.PolicyDocument.Statement as Json[])
      .filter((statement) => statement.Action !== 'iot:Connect')
      .map((statement) => arnText(statement.Resource));
    expect(topicResources).toHaveLength(3);
    for (const resource of topicResources) expect(resource).toMatch(/:topic(filter)?\/prod\/soundbox\//);

    const sql = resourcesOf(prod, 'AWS::IoT::TopicRule').map(
      ([, rule]) => rule.Properties.TopicRulePayload.Sql,
    );
    expect(sql.filter((statement) => statement.includes('soundbox'))).toEqual([
      "SELECT *, topic(3) AS deviceId, timestamp() AS receivedAt FROM 'prod/soundbox/+/status' WHERE type = 'heartbeat'",
    ]);
    for (const [, rule] of resourcesOf(prod, 'AWS::IoT::TopicRule')) {
      expect(rule.Properties.RuleName).toMatch(/^partner_payments_prod_/);
    }

    const publishes = resourcesOf(prod, 'AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[])
      .filter((statement) => asArray<string>(statement.Action).includes('iot:Publish'));
    expect(publishes.length).toBeGreaterThan(3);
    for (const statement of publishes)
      expect(arnText(statement.Resource)).toMatch(/:topic\/prod\/soundbox\/\*"/);
  });

  it('tells every function its stage, which device topics and metric dimensions carry', () => {
    for (const [name] of deployed) {
      expect(functionOf(name).Properties.Environment.Variables.STAGE, name).toBe('prod');
    }
    const [[, alarm]] = resourcesOf(prod, 'AWS::CloudWatch::Alarm').filter(
      ([, candidate]) => candidate.Properties.MetricName === 'SignInCodesRefused',
    ) as [[string, Json]];
    expect(alarm.Properties.Dimensions).toContainEqual({ Name: 'stage', Value: 'prod' });
  });

  it('refuses, at synth, a production stage sharing its AWS account with another stage, either way round', () => {
    const shared = { ...registry, dev: { ...registry.dev, account: registry.prod?.account } };
    expect(() => stageEntry(shared, 'prod')).toThrow(StageRegistryError);
    expect(() => stageEntry(shared, 'prod')).toThrow(
      /Stage "prod" in cdk\.json: account 210987654321 is also the account of "dev": a production stage must have an AWS account of its own/,
    );
    expect(() => stageEntry(shared, 'dev')).toThrow(/is the account of the production stage "prod"/);
    const sharedApp = new App({ context: { 'aws:cdk:bundling-stacks': [], stages: shared, stage: 'prod' } });
    expect(() => buildPaymentsApp(sharedApp)).toThrow(
      /a production stage must have an AWS account of its own/,
    );
    // Two sandboxes may share one, as dev and staging do.
    expect(stageEntry(registry, 'staging').account).toBe(stageEntry(registry, 'dev').account);
  });
});

describe('production: secrets', () => {
  it('creates the providers’ secrets empty: no value and nothing to generate one', () => {
    const secrets = resourcesOf(prod, 'AWS::SecretsManager::Secret').filter(([, secret]) =>
      [providerSecretName('prod', 'wave'), providerSecretName('prod', 'mtn')].includes(
        secret.Properties.Name,
      ),
    );
    expect(secrets).toHaveLength(2);
    for (const [, secret] of secrets) {
      expect(secret.Properties).not.toHaveProperty('GenerateSecretString');
      expect(secret.Properties).not.toHaveProperty('SecretString');
      expect(secret.DeletionPolicy).toBe('Retain');
    }
  });

  it("grants a provider's secret per provider: the payout callbacks get MTN MoMo's alone", () => {
    const secretIds = Object.fromEntries(
      resourcesOf(prod, 'AWS::SecretsManager::Secret').map(([id, secret]) => [secret.Properties.Name, id]),
    );
    const readable = (name: string) =>
      statementsOf(functionOf(name))
        .filter((statement) => asArray<string>(statement.Action).includes('secretsmanager:GetSecretValue'))
        .map((statement) => statement.Resource.Ref)
        .sort();
    const wave = secretIds[providerSecretName('prod', 'wave')];
    const mtn = secretIds[providerSecretName('prod', 'mtn')];
    expect(readable('receivePayoutCallback')).toEqual([mtn]);
    expect(readable('receivePayoutCallbackPut')).toEqual([mtn]);
    const pawapay = secretIds[providerSecretName('prod', 'pawapay')];
    expect(pawapay).toBeDefined();
    // pawaPay's route confirms its callbacks with pawaPay's status check.
    expect(readable('receivePawapayCallback')).toContain(pawapay);
    expect(readable('createTransfer')).toEqual([mtn, pawapay, wave].sort());
    expect(readable('listStores')).toEqual([]);
  });
});

describe('production: least privilege', () => {
  it('grants each function exactly the table actions it declares, never a batch write or a scan', () => {
    for (const [name, declaration] of deployed) {
      const declared = declaration.access
        .filter((access) => access.startsWith('table:'))
        .map((access) => `dynamodb:${access.slice('table:'.length)}`);
      // Item actions: the stream consumer's stream reads (on the stream's ARN) are its event source's.
      const granted = statementsOf(functionOf(name))
        .flatMap((statement) => asArray<string>(statement.Action))
        .filter((action) => itemActions.has(action));
      expect([...new Set(granted)].sort(), name).toEqual(declared.sort());
      expect(granted, name).not.toContain('dynamodb:BatchWriteItem');
      expect(granted, name).not.toContain('dynamodb:Scan');
    }
  });

  it('lets a role pass the escrow schedules’ role to EventBridge Scheduler only', () => {
    const passRoles = resourcesOf(prod, 'AWS::IAM::Policy')
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Json[])
      .filter((statement) =>
        asArray<string>(statement.Action).some((action) => /^iam:(PassRole|\*)$|^\*$/.test(action)),
      );
    expect(passRoles.length).toBeGreaterThan(1);
    for (const statement of passRoles) {
      expect(statement.Action).toBe('iam:PassRole');
      expect(statement.Condition).toEqual({
        StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' },
      });
    }
  });

  it('lets the functions use a KMS key only with the encryption context of their one use', () => {
    const streamConsumer = functionOf('dispatchTableChanges');
    let conditioned = 0;
    for (const [, fn] of resourcesOf(prod, 'AWS::Lambda::Function')) {
      for (const statement of statementsOf(fn)) {
        if (!asArray<string>(statement.Action).some((action) => action.startsWith('kms:'))) continue;
        if (fn === streamConsumer && statement.Condition === undefined) {
          // The stream event source's own grant (CDK's grantStreamRead), kept as it is: the key
          // DynamoDB Streams decrypts with is asked for with no documented encryption context
          // (docs/operations/backups.md). The table's key, for this one function.
          expect(statement.Action).toEqual(['kms:Decrypt', 'kms:DescribeKey']);
          continue;
        }
        conditioned++;
        expect(JSON.stringify(statement.Condition ?? {}), JSON.stringify(statement)).toMatch(
          /kms:EncryptionContext:/,
        );
      }
    }
    expect(conditioned).toBeGreaterThan(10);
    // Webhook secrets: for a business's signing secret only.
    const [decrypt] = statementsOf(functionOf('sendWebhooks')).filter(
      (statement) =>
        statement.Action === 'kms:Decrypt' && !JSON.stringify(statement.Condition).includes('dynamodb'),
    ) as Json[];
    expect(decrypt.Condition).toEqual({
      StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-signing-secret' },
      Null: { 'kms:EncryptionContext:businessId': 'false' },
    });
    // The table's key: through DynamoDB, for this table.
    const [tableKeyUse] = statementsOf(functionOf('listStores')).filter(
      (statement) => statement.Action === 'kms:Decrypt',
    ) as Json[];
    expect(tableKeyUse.Condition.StringEquals).toMatchObject({
      'kms:ViaService': 'dynamodb.eu-west-1.amazonaws.com',
      'kms:EncryptionContext:aws:dynamodb:tableName': { Ref: expect.any(String) },
    });
  });

  it("lets services use the topics' keys only through SNS, for their own topic", () => {
    for (const [, key] of resourcesOf(prod, 'AWS::KMS::Key')) {
      for (const statement of key.Properties.KeyPolicy.Statement as Json[]) {
        if (!statement.Principal?.Service) continue;
        expect(JSON.stringify(statement.Condition), JSON.stringify(statement)).toMatch(
          /kms:EncryptionContext:aws:sns:topicArn/,
        );
      }
    }
  });

  it('gives operators a role of their own for the admin command: items and scans, never a secret read or the table itself', () => {
    const [[roleId, role]] = resourcesOf(prod, 'AWS::IAM::Role').filter(
      ([, candidate]) => candidate.Properties.RoleName === operatorRoleName('prod'),
    ) as [[string, Json]];
    expect(role.Properties.MaxSessionDuration).toBe(3600);
    const actions = roleStatements(roleId).flatMap((statement) => asArray<string>(statement.Action));
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Scan', 'secretsmanager:PutSecretValue']),
    );
    expect(actions).not.toContain('secretsmanager:GetSecretValue');
    for (const action of actions)
      expect(action).not.toMatch(/\*$|^dynamodb:(DeleteTable|UpdateTable|Restore)/);
    expect(prod.toJSON().Outputs.OperatorRoleArn).toBeDefined();
  });
});

describe('production: the table’s key and backups', () => {
  it('encrypts the table with a customer-managed key of its own, rotated, kept with the table', () => {
    const [[, table]] = resourcesOf(prod, 'AWS::DynamoDB::Table') as [[string, Json]];
    expect(table.Properties.SSESpecification).toEqual({
      SSEEnabled: true,
      SSEType: 'KMS',
      KMSMasterKeyId: { 'Fn::GetAtt': [expect.any(String), 'Arn'] },
    });
    const keyId = table.Properties.SSESpecification.KMSMasterKeyId['Fn::GetAtt'][0];
    const key = prod.toJSON().Resources[keyId];
    expect(key.Type).toBe('AWS::KMS::Key');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
  });

  it('backs the table up daily and monthly, each copied to a second, locked vault with a key of its own', () => {
    const vaults = Object.fromEntries(
      resourcesOf(prod, 'AWS::Backup::BackupVault').map(([id, vault]) => [
        vault.Properties.BackupVaultName,
        [id, vault],
      ]),
    );
    const [vaultId, vault] = vaults[backupVaultName('prod')] as [string, Json];
    const [copyId, copy] = vaults[backupCopyVaultName('prod')] as [string, Json];
    expect(vault.DeletionPolicy).toBe('Retain');
    expect(copy.DeletionPolicy).toBe('Retain');
    expect(copy.Properties.LockConfiguration).toEqual({ MinRetentionDays: 35 });
    expect(copy.Properties.EncryptionKeyArn).not.toEqual(vault.Properties.EncryptionKeyArn);

    const [[, plan]] = resourcesOf(prod, 'AWS::Backup::BackupPlan') as [[string, Json]];
    const rules = plan.Properties.BackupPlan.BackupPlanRule as Json[];
    expect(
      rules.map((rule) => [rule.RuleName, rule.ScheduleExpression, rule.Lifecycle.DeleteAfterDays]),
    ).toEqual([
      ['Daily', 'cron(0 2 * * ? *)', 35],
      ['Monthly', 'cron(0 3 1 * ? *)', 365],
    ]);
    for (const rule of rules) {
      expect(rule.TargetBackupVault).toEqual({ 'Fn::GetAtt': [vaultId, 'BackupVaultName'] });
      expect(rule.CopyActions).toEqual([
        {
          DestinationBackupVaultArn: { 'Fn::GetAtt': [copyId, 'BackupVaultArn'] },
          Lifecycle: { DeleteAfterDays: rule.Lifecycle.DeleteAfterDays },
        },
      ]);
    }
    const [[, selection]] = resourcesOf(prod, 'AWS::Backup::BackupSelection') as [[string, Json]];
    const [[tableId]] = resourcesOf(prod, 'AWS::DynamoDB::Table') as [[string, Json]];
    expect(JSON.stringify(selection.Properties.BackupSelection.Resources)).toContain(tableId);
  });

  it('builds no backup plan and no table key on a sandbox stage', () => {
    const devApp = new App({
      context: {
        'aws:cdk:bundling-stacks': [],
        stages: registry,
        stage: 'dev',
        [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false,
      },
    });
    const dev = stageTemplateOf(buildPaymentsApp(devApp));
    expect(resourcesOf(dev, 'AWS::Backup::BackupPlan')).toEqual([]);
    const [[, table]] = resourcesOf(dev, 'AWS::DynamoDB::Table') as [[string, Json]];
    expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true });
  });
});

describe('production: cdk-nag', () => {
  it('reports no unacknowledged finding on what is added here', () => {
    for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
      const report = pack.validateScope(app);
      expect(
        report.violations.map(
          (violation) =>
            `${violation.ruleName} at ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`,
        ),
      ).toEqual([]);
    }
  });
});
