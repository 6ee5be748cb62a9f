import { App, type CfnResource, CfnWaitConditionHandle, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import {
  cloudFormationResourceLimit,
  functionGroupOf,
  functionGroupStackId,
  functionGroupStackIdOf,
  functionScopeOf,
  groupFunctionsOf,
  nestedStackFillBudget,
  reserveResources,
  resourceCountOf,
  stackResourceMargin,
} from '#infra/function-groups.ts';
import { stackName } from '#infra/naming.ts';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import { ServiceFunction } from '#infra/service-function.ts';
import type { PaymentsStack } from '#infra/stack.ts';
import { readRegistryFile } from '#infra/stage-registry.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { deviceRuleEntries } from '#shared/catalogue/device-rules.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { scheduleEntries, scheduleTargetEntries } from '#shared/catalogue/schedules.ts';
import { streamConsumerEntries } from '#shared/catalogue/stream-consumers.ts';
import { nestedStacksOf, stageTemplateOf } from '#test/support/stage-template.ts';
import { pathOf } from '#test/support/stage-template-queries.ts';

const registry = readRegistryFile() as Record<string, Record<string, unknown>>;

function build(stage: string): PaymentsStack {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], stages: registry, stage } });
  const stack = buildPaymentsApp(app);
  app.synth();
  return stack;
}

const stages = { dev: build('dev'), prod: build('prod') };

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;
const resourcesOf = (template: Template, type: string): [string, Json][] =>
  Object.entries(template.findResources(type));

/** The aliases of a function (a money path's `live`), by logical id. */
const aliasesOf = (template: Template, functionId: string): string[] =>
  resourcesOf(template, 'AWS::Lambda::Alias')
    .filter(([, alias]) => alias.Properties.FunctionName.Ref === functionId)
    .map(([id]) => id);

/** Every function the stage has, with the entry of the route table that made it. */
function functionsOf(stack: PaymentsStack) {
  const entries = [
    ...endpointEntries,
    ...workerEntries,
    ...scheduleEntries,
    ...scheduleTargetEntries,
    ...deviceRuleEntries,
    ...streamConsumerEntries,
  ];
  const all = new Map([
    ...stack.functions,
    ...stack.workers,
    ...stack.scheduled,
    ...stack.scheduleTargets,
    ...stack.deviceRuleFunctions,
    ...stack.streamConsumers,
  ]);
  return entries.flatMap(([name, entry]) => {
    const fn = all.get(name as never);
    return fn ? [{ name, handler: entry.entry, fn }] : [];
  });
}

describe.each(Object.entries(stages))('the stacks of %s', (stage, stack) => {
  it("put every function in a nested stack of its entry's directory under functions/", () => {
    const functions = functionsOf(stack);
    expect(functions.length).toBeGreaterThan(0);
    for (const { name, handler, fn } of functions) {
      const home = Stack.of(fn);
      expect(home.nestedStackParent, name).toBe(stack);
      expect(functionGroupStackIdOf(home.node.id)?.group, name).toBe(functionGroupOf(handler));
    }
    // Each group's stacks numbered from its first, none empty, and no stack of another kind.
    const groups = new Set(functions.map(({ handler }) => functionGroupOf(handler)));
    const nested = nestedStacksOf(stack).map((each) => each.node.id);
    for (const group of groups) {
      const ofGroup = nested.filter((id) => functionGroupStackIdOf(id)?.group === group);
      expect(ofGroup.sort(), group).toEqual(
        ofGroup.map((_, index) => functionGroupStackId(group, index + 1)).sort(),
      );
    }
    expect(nested.every((id) => groups.has(functionGroupStackIdOf(id)?.group as string))).toBe(true);
  });

  it("put each route's API method, with the path parts only its stack uses, beside its function", () => {
    const parent = Template.fromStack(stack);
    parent.resourceCountIs('AWS::ApiGateway::Method', 0);
    for (const [name, fn] of stack.functions) {
      const home = Template.fromStack(Stack.of(fn));
      const route = endpointEntries.find(([routeName]) => routeName === name)?.[1];
      expect(
        resourcesOf(home, 'AWS::ApiGateway::Method').some(
          ([, method]) => method.Properties.HttpMethod === route?.method,
        ),
        name,
      ).toBe(true);
    }
    // A path part in the parent is one that routes of more than one stack use.
    const homesByPath = new Map<string, Set<string>>();
    for (const [name, fn] of stack.functions) {
      const route = endpointEntries.find(([routeName]) => routeName === name)?.[1];
      const parts = route?.path.split('/').filter(Boolean) ?? [];
      for (let index = 1; index <= parts.length; index += 1) {
        const path = parts.slice(0, index).join('/');
        homesByPath.set(path, (homesByPath.get(path) ?? new Set()).add(Stack.of(fn).node.id));
      }
    }
    const merged = stageTemplateOf(stack);
    for (const [id] of resourcesOf(parent, 'AWS::ApiGateway::Resource')) {
      const path = pathOf(merged, { Ref: id }).slice(1);
      expect(homesByPath.get(path)?.size, path).toBeGreaterThan(1);
    }
  });

  it('deploy the API after every nested stack holding its methods, and again when a method changes', () => {
    const parent = Template.fromStack(stack).toJSON();
    const [[, deployment]] = Object.entries(parent.Resources).filter(
      ([, resource]) => (resource as Json).Type === 'AWS::ApiGateway::Deployment',
    ) as [[string, Json]];
    const holdingMethods = nestedStacksOf(stack).filter(
      (each) => Object.keys(Template.fromStack(each).findResources('AWS::ApiGateway::Method')).length > 0,
    );
    expect(holdingMethods.length).toBeGreaterThan(1);
    for (const each of holdingMethods) {
      const resourceId = stack.getLogicalId(each.nestedStackResource as CfnResource);
      expect(deployment.DependsOn, each.node.id).toContain(resourceId);
    }
  });

  it('keep with each function its role, policies, log group, errors alarm and what invokes it', () => {
    for (const { name, fn } of functionsOf(stack)) {
      const template = Template.fromStack(Stack.of(fn));
      const functionName = `${stackName(stage)}-${name}`;
      const [[functionId, resource]] = resourcesOf(template, 'AWS::Lambda::Function').filter(
        ([, candidate]) => candidate.Properties.FunctionName === functionName,
      ) as [[string, Json]];
      const roleId = resource.Properties.Role['Fn::GetAtt'][0];
      expect(template.findResources('AWS::IAM::Role')[roleId], name).toBeDefined();
      expect(
        resourcesOf(template, 'AWS::IAM::Policy').filter(([, policy]) =>
          policy.Properties.Roles.some((role: Json) => role.Ref === roleId),
        ).length,
        name,
      ).toBeGreaterThan(0);
      template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: `/aws/lambda/${functionName}` });
      template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: `${functionName}-errors` });
      // EventBridge Scheduler invokes with the stage's Scheduler role, whose grant stack.test.ts
      // checks: no resource policy names the function.
      if (scheduleTargetEntries.some(([target]) => target === name)) continue;
      // The API's, a schedule's or an IoT rule's permission to invoke it, or its queue's or stream's mapping.
      // A money path is invoked through its `live` alias, beside it.
      const invokedIds = [functionId, ...aliasesOf(template, functionId)];
      const invokers = [
        ...resourcesOf(template, 'AWS::Lambda::Permission'),
        ...resourcesOf(template, 'AWS::Lambda::EventSourceMapping'),
      ].filter(([, invoker]) =>
        invokedIds.some((id) => JSON.stringify(invoker.Properties.FunctionName).includes(`"${id}"`)),
      );
      expect(invokers.length, name).toBeGreaterThan(0);
    }
  });

  it('leave in the parent no function, function role, function log group, permission or function alarm', () => {
    const parent = Template.fromStack(stack);
    for (const type of [
      'AWS::Lambda::Function',
      'AWS::Lambda::Permission',
      'AWS::Lambda::EventSourceMapping',
    ]) {
      parent.resourceCountIs(type, 0);
    }
    // API Gateway's account-wide logging role, the role EventBridge Scheduler invokes the escrow
    // expiry with, the one CodeDeploy shifts the money paths' aliases with and the operators' role
    // (a stage's, not a function's) are the parent's only roles, with, on production, the role AWS
    // Backup backs the table up with.
    parent.resourceCountIs('AWS::IAM::Role', stage === 'prod' ? 5 : 4);
    for (const [, logGroup] of resourcesOf(parent, 'AWS::Logs::LogGroup')) {
      expect(JSON.stringify(logGroup.Properties.LogGroupName ?? '')).not.toContain('/aws/lambda/');
    }
    const functionAlarms = new Set(
      functionsOf(stack).map(({ name }) => `${stackName(stage)}-${name}-errors`),
    );
    for (const [, alarm] of resourcesOf(parent, 'AWS::CloudWatch::Alarm')) {
      expect(functionAlarms.has(alarm.Properties.AlarmName), alarm.Properties.AlarmName).toBe(false);
    }
  });

  it('each hold at most the margin of resources, counted as their templates have them', () => {
    for (const each of [stack, ...nestedStacksOf(stack)]) {
      const inTemplate = Object.keys(Template.fromStack(each).toJSON().Resources).length;
      expect(resourceCountOf(each), each.node.path).toBe(inTemplate);
      expect(inTemplate, each.node.path).toBeLessThanOrEqual(stackResourceMargin);
    }
    expect(stackResourceMargin).toBeLessThan(cloudFormationResourceLimit);
  });

  it("let API Gateway invoke each route's function from that route's method of this stage only", () => {
    const merged = stageTemplateOf(stack);
    const [[apiId]] = resourcesOf(merged, 'AWS::ApiGateway::RestApi') as [[string, Json]];
    const permissions = resourcesOf(merged, 'AWS::Lambda::Permission');
    for (const [name, fn] of stack.functions) {
      const route = endpointEntries.find(
        ([routeName]) => routeName === name,
      )?.[1] as (typeof endpointEntries)[number][1];
      const functionId = Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);
      const invokedIds = [functionId, ...aliasesOf(merged, functionId)];
      const granted = permissions.filter(([, permission]) =>
        invokedIds.some((id) => JSON.stringify(permission.Properties.FunctionName).includes(`"${id}"`)),
      );
      expect(granted, name).toHaveLength(1);
      const [[, permission]] = granted as [[string, Json]];
      expect(permission.Properties.Principal).toBe('apigateway.amazonaws.com');
      const [, parts] = permission.Properties.SourceArn['Fn::Join'] as [string, Json[]];
      expect(parts).toContainEqual({ Ref: apiId });
      expect(parts.at(-1), name).toBe(`/${stage}/${route.method}${route.path.replace(/\{[^}]*\}/g, '*')}`);
    }
  });

  it('read as one template hold every function, once', () => {
    const merged = stageTemplateOf(stack);
    merged.resourceCountIs('AWS::Lambda::Function', functionsOf(stack).length);
    merged.resourceCountIs('AWS::CloudFormation::Stack', 0);
  });
});

describe('a function asked for in a grouping stack', () => {
  const newFunction = (scope: Stack, entry: string, id: string) =>
    new ServiceFunction(scope, id, {
      entry,
      invokedBy: 'api',
      functionName: `groups-${id}`,
      access: ['table:GetItem'],
      resources: { table: Table.fromTableName(scope, `${id}Table`, 'a-table'), queues: new Map() },
      timeout: Duration.seconds(3),
      sandbox: true,
      logRetention: RetentionDays.ONE_DAY,
      logRemovalPolicy: RemovalPolicy.DESTROY,
    });

  it("lands in its directory's nested stack, made on first use, with no code for the group", () => {
    const stack = new Stack(new App(), 'Groups', { env: { account: '123456789012', region: 'eu-west-1' } });
    groupFunctionsOf(stack);
    const create = newFunction(stack, 'functions/transfers/create-transfer.ts', 'CreateTransfer');
    const get = newFunction(stack, 'functions/transfers/get-transfer.ts', 'GetTransfer');
    const sweep = newFunction(stack, 'functions/workers/sweep-escrows.ts', 'SweepEscrows');
    expect(Stack.of(create).node.path).toBe('Groups/TransfersFunctions');
    expect(Stack.of(get)).toBe(Stack.of(create));
    expect(Stack.of(sweep).node.path).toBe('Groups/WorkersFunctions');
    // A directory no function had before makes its own group.
    expect(functionScopeOf(stack, 'functions/escrows/create-escrow.ts').node.path).toBe(
      'Groups/EscrowsFunctions',
    );
    const transfers = Template.fromStack(Stack.of(create));
    transfers.resourceCountIs('AWS::Lambda::Function', 2);
    transfers.resourceCountIs('AWS::Logs::LogGroup', 2);
    // The X-Ray policy stays one, in the parent, whatever the number of groups.
    Template.fromStack(stack).resourceCountIs('AWS::IAM::ManagedPolicy', 1);
    transfers.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
  });

  it("opens its group's next nested stack when the last one is filled to the budget", () => {
    const stack = new Stack(new App(), 'Groups', { env: { account: '123456789012', region: 'eu-west-1' } });
    groupFunctionsOf(stack);
    const first = newFunction(stack, 'functions/transfers/create-transfer.ts', 'CreateTransfer');
    reserveResources(Stack.of(first), nestedStackFillBudget - resourceCountOf(Stack.of(first)) - 1);
    // One resource short of the budget: the next function still goes in.
    const second = newFunction(stack, 'functions/transfers/get-transfer.ts', 'GetTransfer');
    expect(Stack.of(second)).toBe(Stack.of(first));
    const third = newFunction(stack, 'functions/transfers/get-transfer.ts', 'GetTransferAgain');
    expect(Stack.of(third).node.path).toBe('Groups/TransfersFunctions2');
    expect(functionGroupStackIdOf('TransfersFunctions2')).toEqual({ group: 'transfers', index: 2 });
    // Another group is not affected.
    const sweep = newFunction(stack, 'functions/workers/sweep-escrows.ts', 'SweepEscrows');
    expect(Stack.of(sweep).node.path).toBe('Groups/WorkersFunctions');
  });

  it('stays where it is asked for in a stack that does not group', () => {
    const stack = new Stack(new App(), 'Plain');
    const fn = newFunction(stack, 'functions/transfers/create-transfer.ts', 'CreateTransfer');
    expect(Stack.of(fn)).toBe(stack);
  });

  it('must have its entry under functions/<resource>/', () => {
    const stack = new Stack(new App(), 'Groups');
    groupFunctionsOf(stack);
    expect(() => functionScopeOf(stack, 'shared/operations/x.ts')).toThrow(
      'Entry shared/operations/x.ts is not under functions/<resource>/: its group is unknown',
    );
  });
});

describe('the resource margin', () => {
  const fill = (stack: Stack, count: number) => {
    for (let index = 0; index < count; index += 1) new CfnWaitConditionHandle(stack, `Filler${index}`);
  };

  const appWithNestedStackOf = (resources: number) => {
    const app = new App();
    const stack = new Stack(app, 'Groups');
    groupFunctionsOf(stack);
    fill(functionScopeOf(stack, 'functions/escrows/create-escrow.ts') as Stack, resources);
    return app;
  };

  it('lets a nested stack hold as many resources as the margin', () => {
    expect(() => appWithNestedStackOf(stackResourceMargin).synth()).not.toThrow();
  });

  it('fails the synth, naming the stack, when a nested stack goes over it', () => {
    expect(() => appWithNestedStackOf(stackResourceMargin + 1).synth()).toThrow(
      `Stack Groups/EscrowsFunctions holds ${stackResourceMargin + 1} resources, over the margin of ${stackResourceMargin} kept under CloudFormation's 500`,
    );
  });

  it('fails the synth when the parent goes over it', () => {
    const app = new App();
    const stack = new Stack(app, 'Groups');
    groupFunctionsOf(stack);
    fill(stack, stackResourceMargin + 1);
    expect(() => app.synth()).toThrow(`Stack Groups holds ${stackResourceMargin + 1} resources`);
  });
});
