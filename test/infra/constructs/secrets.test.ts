/**
 * The stage's secrets (infra/constructs/secrets.ts): the key of the webhook signing secrets and who
 * may use it, and the sandbox provider's secret, on sandbox stages and to the functions that name it
 * alone. The live providers' secrets are provider-secrets.test.ts's.
 */
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  operatorRoleName,
  sandboxProviderSecretName,
  stackName,
  webhookSecretsKeyAlias,
} from '#infra/naming.ts';
import { sandboxProviderSecretArnVariable } from '#infra/service-function.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';
import { appFor, standAloneFunction } from '#test/support/stage-synth.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import {
  asArray,
  functionOf,
  functionsNamed,
  type Json,
  onlyResourceOf,
  resourceOf,
  resourcesOf,
  statementsOf,
} from '#test/support/stage-template-queries.ts';

const { dev, prod, bothStages } = await synthesizedStages();

describe('the webhook secrets key', () => {
  const keyOf = (template: Template) =>
    onlyResourceOf(template, 'AWS::KMS::Key', (key) =>
      String(key.Properties.Description).includes('webhook signing secrets'),
    );

  it.each(bothStages)(
    'on %s may be used by the subscription creators (Encrypt), the webhook sender (Decrypt) and the operator role (Encrypt, for set-webhook) alone',
    (stage, { template }) => {
      const [keyId, key] = keyOf(template);
      expect(key.Properties.EnableKeyRotation).toBe(true);
      const users = new Map<string, string[]>();
      for (const [, policy] of resourcesOf(template, 'AWS::IAM::Policy')) {
        for (const statement of policy.Properties.PolicyDocument.Statement) {
          if (!JSON.stringify(statement.Resource).includes(keyId)) continue;
          for (const role of policy.Properties.Roles) {
            const fn = resourcesOf(template, 'AWS::Lambda::Function').find(
              ([, candidate]) => candidate.Properties.Role['Fn::GetAtt'][0] === role.Ref,
            );
            const roleName = resourceOf(template, 'AWS::IAM::Role', role.Ref)?.Properties.RoleName;
            users.set(fn?.[1].Properties.FunctionName ?? roleName ?? role.Ref, asArray(statement.Action));
          }
        }
      }
      // The functions that make a secret: the provider's and the business's own creates, and the
      // dashboard's save and rotation.
      const creators = [
        'createWebhookSubscription',
        'createOwnWebhookSubscription',
        'saveWebhookPage',
        'rotateWebhookSecretPage',
      ];
      expect(Object.fromEntries(users)).toEqual({
        ...Object.fromEntries(creators.map((name) => [`${stackName(stage)}-${name}`, ['kms:Encrypt']])),
        [`${stackName(stage)}-sendWebhooks`]: ['kms:Decrypt'],
        [operatorRoleName(stage)]: ['kms:Encrypt'],
      });
      for (const name of [...creators, 'sendWebhooks']) {
        const [, fn] = functionOf(template, stage, name);
        expect(fn.Properties.Environment.Variables.WEBHOOK_SECRETS_KEY_ID).toEqual({
          'Fn::GetAtt': [keyId, 'Arn'],
        });
      }
      // The key policy itself names no principal but the account, so IAM decides, as above.
      for (const statement of key.Properties.KeyPolicy.Statement) {
        expect(JSON.stringify(statement.Principal)).toMatch(/:root"/);
      }
    },
  );

  it('is retained on a production stage, with its alias for the admin command', () => {
    const [, key] = keyOf(prod.template);
    expect(key.DeletionPolicy).toBe('Retain');
    prod.template.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: webhookSecretsKeyAlias('prod'),
    });
  });
});

describe('the sandbox provider secret', () => {
  // The sandbox provider's: the live providers' secrets are test/infra/provider-secrets.test.ts's.
  const secretsOf = (template: Template) =>
    resourcesOf(template, 'AWS::SecretsManager::Secret').filter(([, secret]) =>
      secret.Properties.Name.endsWith('-sandbox-provider'),
    );
  const withSecretAccess = functionEntries.filter(([, entry]) =>
    entry.access.includes('secret:sandboxProvider'),
  );
  const sandboxSecretIds = (template: Template) => new Set(secretsOf(template).map(([id]) => id));
  const secretStatementsOf = (template: Template, fn: Json) =>
    statementsOf(template, fn).filter(
      (statement) =>
        asArray<string>(statement.Action).some((action) => action.startsWith('secretsmanager:')) &&
        sandboxSecretIds(template).has(statement.Resource?.Ref),
    );

  it('exists on dev: 64 generated letters and digits, named after the stack, deleted with it', () => {
    const secrets = secretsOf(dev.template);
    expect(secrets).toHaveLength(1);
    const [, secret] = secrets[0] as [string, Json];
    expect(secret.Properties.Name).toBe(sandboxProviderSecretName('dev'));
    expect(secret.Properties.Name.startsWith(`${stackName('dev')}-`)).toBe(true);
    expect(secret.Properties.GenerateSecretString).toEqual({
      PasswordLength: 64,
      ExcludePunctuation: true,
      IncludeSpace: false,
    });
    expect(secret.DeletionPolicy).toBe('Delete');
  });

  it('does not exist on prod', () => {
    expect(secretsOf(prod.template)).toEqual([]);
  });

  it('may be read, with its ARN in the environment, by exactly the functions of dev whose access names it', () => {
    const [secretId] = secretsOf(dev.template)[0] as [string, Json];
    // Both kinds must be present, or the loop below would prove nothing for one of them.
    expect(withSecretAccess.length).toBeGreaterThan(0);
    expect(withSecretAccess.length).toBeLessThan(functionEntries.length);
    for (const [name, entry] of functionEntries) {
      const [, fn] = functionOf(dev.template, 'dev', name);
      const statements = secretStatementsOf(dev.template, fn);
      const variable = fn.Properties.Environment.Variables[sandboxProviderSecretArnVariable];
      if (entry.access.includes('secret:sandboxProvider')) {
        expect(
          statements.flatMap((statement) => asArray(statement.Action)),
          name,
        ).toContain('secretsmanager:GetSecretValue');
        for (const statement of statements) expect(statement.Resource, name).toEqual({ Ref: secretId });
        expect(variable, name).toEqual({ Ref: secretId });
      } else {
        expect(statements, name).toEqual([]);
        expect(variable, name).toBeUndefined();
      }
    }
  });

  it('is granted to no function of prod, not even the provider callback that names it', () => {
    const deployed = withSecretAccess.filter(([name]) => functionsNamed(prod.template, 'prod', name).length);
    expect(deployed.map(([name]) => name)).toContain('receiveProviderCallback');
    for (const [, fn] of resourcesOf(prod.template, 'AWS::Lambda::Function')) {
      const name = fn.Properties.FunctionName;
      expect(secretStatementsOf(prod.template, fn), name).toEqual([]);
      expect(fn.Properties.Environment.Variables, name).not.toHaveProperty(sandboxProviderSecretArnVariable);
    }
  });

  it('must exist on a sandbox stage: a sandbox function without it is a mistake in the stack', () => {
    const stack = new Stack(appFor({}), 'MissingSecret');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const resources = { table, queues: new Map() };
    expect(() =>
      standAloneFunction(stack, 'SandboxReader', ['secret:sandboxProvider'], resources, true),
    ).toThrow(/SandboxReader needs the sandbox provider secret/);
    expect(() =>
      standAloneFunction(stack, 'ProductionReader', ['secret:sandboxProvider'], resources, false),
    ).not.toThrow();
  });
});
