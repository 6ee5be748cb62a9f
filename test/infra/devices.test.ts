import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT } from 'aws-cdk-lib/cx-api';
import { describe, expect, it } from 'vitest';
import { devicePolicyName, deviceThingTypeName, stackName } from '#infra/naming.ts';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import { readRegistryFile } from '#infra/stage-registry.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { deviceRules } from '#shared/catalogue/device-rules.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { scheduleEntries } from '#shared/catalogue/schedules.ts';
import { stageTemplateOf } from '#test/support/stage-template.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is checked by the assertions
type Json = any;

function build(stage: string) {
  const app = new App({
    context: {
      'aws:cdk:bundling-stacks': [],
      stages: readRegistryFile(),
      stage,
      [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false,
    },
  });
  return stageTemplateOf(buildPaymentsApp(app));
}

const dev = build('dev');
const prod = build('prod');

const resourcesOf = (template: Template, type: string): [string, Json][] =>
  Object.entries(template.findResources(type));

/** `Fn::Join` of an ARN built by formatArn, flattened to a string with its tokens named. */
function arnText(arn: Json): string {
  if (typeof arn === 'string') return arn;
  const [, parts] = arn['Fn::Join'] as [string, Json[]];
  return parts.map((part) => (typeof part === 'string' ? part : `<${Object.values(part)[0]}>`)).join('');
}

describe('soundbox devices in the stack', () => {
  it('have their thing type: SoundBoxQrTerminal on production, its own per other stage', () => {
    prod.hasResourceProperties('AWS::IoT::ThingType', { ThingTypeName: 'SoundBoxQrTerminal' });
    dev.hasResourceProperties('AWS::IoT::ThingType', { ThingTypeName: deviceThingTypeName('dev', false) });
    expect(deviceThingTypeName('dev', false)).toBe('SoundBoxQrTerminal-dev');
  });

  it('get a policy that keeps each device to its own thing name and topics, by policy variables', () => {
    const [[, policy]] = resourcesOf(dev, 'AWS::IoT::Policy') as [[string, Json]];
    expect(policy.Properties.PolicyName).toBe(devicePolicyName('dev'));
    const statements = policy.Properties.PolicyDocument.Statement as Json[];
    const byAction = Object.fromEntries(
      statements.map((statement) => [
        statement.Action,
        { ...statement, Resource: arnText(statement.Resource) },
      ]),
    );
    expect(Object.keys(byAction).sort()).toEqual([
      'iot:Connect',
      'iot:Publish',
      'iot:Receive',
      'iot:Subscribe',
    ]);
    for (const statement of statements) expect(statement.Effect).toBe('Allow');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: IoT policy variable syntax
    const thing = '${iot:Connection.Thing.ThingName}';
    expect(byAction['iot:Connect'].Resource).toMatch(new RegExp(`:client/${escapeRegExp(thing)}$`));
    expect(byAction['iot:Connect'].Condition).toEqual({
      Bool: { 'iot:Connection.Thing.IsAttached': 'true' },
      StringEquals: { 'iot:Connection.Thing.ThingTypeName': 'SoundBoxQrTerminal-dev' },
    });
    expect(byAction['iot:Subscribe'].Resource).toMatch(
      new RegExp(`:topicfilter/dev/soundbox/${escapeRegExp(thing)}/\\*$`),
    );
    expect(byAction['iot:Receive'].Resource).toMatch(
      new RegExp(`:topic/dev/soundbox/${escapeRegExp(thing)}/\\*$`),
    );
    expect(byAction['iot:Publish'].Resource).toMatch(
      new RegExp(`:topic/dev/soundbox/${escapeRegExp(thing)}/status$`),
    );
  });

  it('have rules that hand heartbeats and lifecycle events to the presence function, allowed to invoke it', () => {
    const rules = resourcesOf(dev, 'AWS::IoT::TopicRule');
    expect(rules.map(([, rule]) => rule.Properties.TopicRulePayload.Sql)).toEqual([
      ...deviceRules.recordDevicePresence.sql('dev'),
    ]);
    expect(rules.map(([, rule]) => rule.Properties.TopicRulePayload.Sql).join(' ')).toMatch(
      /topic\(3\) AS deviceId.*FROM 'dev\/soundbox\/\+\/status'.*FROM '\$aws\/events\/presence\/\+\/\+'/,
    );
    const [presenceId] = resourcesOf(dev, 'AWS::Lambda::Function').find(
      ([, fn]) => fn.Properties.FunctionName === `${stackName('dev')}-recordDevicePresence`,
    ) as [string, Json];
    for (const [ruleId, rule] of rules) {
      expect(rule.Properties.TopicRulePayload.Actions).toEqual([
        { Lambda: { FunctionArn: { 'Fn::GetAtt': [presenceId, 'Arn'] } } },
      ]);
      expect(rule.Properties.RuleName).toMatch(/^[a-zA-Z0-9_]+$/);
      const permissions = resourcesOf(dev, 'AWS::Lambda::Permission').filter(
        ([, permission]) =>
          permission.Properties.Principal === 'iot.amazonaws.com' &&
          permission.Properties.SourceArn?.['Fn::GetAtt']?.[0] === ruleId,
      );
      expect(permissions, ruleId).toHaveLength(1);
    }
  });

  it("may be published to only by the functions that push to them, and only under the stage's dev/soundbox/", () => {
    const publishing = new Set(
      [...endpointEntries, ...workerEntries, ...scheduleEntries]
        .filter(([, entry]) => entry.access.includes('device:push'))
        .map(([name]) => `${stackName('dev')}-${name}`),
    );
    expect([...publishing].sort()).toEqual(
      [
        // Ending a request unpaid takes its QR off: the cancel, the page's "back to the shop", the
        // sandbox's payer who leaves, the expiry, and a sweep that finds a request over.
        'abandonPaymentPage',
        'approveSandboxPaymentRequest',
        // The dashboard's ways to make and end a request go through the API's operations: asking
        // by SMS (the operation that can push to a soundbox), a request's cancel, and the
        // soundbox page's test QR, which is a request pushed to the device.
        'askForPaymentPage',
        'cancelPaymentPage',
        'cancelPaymentRequest',
        'createPaymentRequest',
        'declineSandboxPaymentRequest',
        'expirePaymentRequests',
        'paySandboxPaymentLink',
        'receivePawapayCallback',
        'receiveProviderCallback',
        'receiveProviderCallbackPut',
        'showTestQrPage',
        'sweepDevicePushes',
        'sweepPendingCollections',
      ].map((name) => `${stackName('dev')}-${name}`),
    );
    const functionByRole = new Map(
      resourcesOf(dev, 'AWS::Lambda::Function').map(([, fn]) => [
        fn.Properties.Role['Fn::GetAtt'][0] as string,
        fn.Properties.FunctionName as string,
      ]),
    );
    const publishers = new Set<string>();
    for (const [, policy] of resourcesOf(dev, 'AWS::IAM::Policy')) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Json[]) {
        const actions = [statement.Action].flat() as string[];
        if (!actions.some((action) => action === 'iot:Publish' || action === 'iot:*' || action === '*'))
          continue;
        expect(actions).toEqual(['iot:Publish']);
        expect(arnText(statement.Resource)).toMatch(/:topic\/dev\/soundbox\/\*$/);
        for (const role of policy.Properties.Roles as Json[])
          publishers.add(functionByRole.get(role.Ref) ?? role.Ref);
      }
    }
    expect([...publishers].sort()).toEqual([...publishing].sort());
  });
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
