import { App, CfnResource, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { CfnMethod } from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { type CfnQueue, Queue } from 'aws-cdk-lib/aws-sqs';
import { FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { stageThrottling } from '#infra/constructs/api.ts';
import {
  apiLatencyAlarm,
  oldestMessageAlarmSeconds,
  serverErrorRateAlarm,
} from '#infra/constructs/observability.ts';
import { managedRuleGroups } from '#infra/constructs/web-acl.ts';
import { rulesWithFindings } from '#infra/nag.ts';
import {
  alarmTopicName,
  deadLetterQueueName,
  operatorRoleName,
  sandboxProviderSecretName,
  serviceName,
  stackName,
  tableNameForStage,
  webhookSecretsKeyAlias,
} from '#infra/naming.ts';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import {
  apiFunctionTimeout,
  ServiceFunction,
  type ServiceResources,
  sandboxProviderSecretArnVariable,
} from '#infra/service-function.ts';
import { readRegistryFile } from '#infra/stage-registry.ts';
import { endpointEntries, endpoints } from '#shared/api/all-endpoints.ts';
import type { AwsAccess } from '#shared/catalogue/access.ts';
import { deviceRuleEntries } from '#shared/catalogue/device-rules.ts';
import { workerEntries, workers } from '#shared/catalogue/queue-workers.ts';
import { type QueueDefinition, type QueueName, queues, queueUrlVariable } from '#shared/catalogue/queues.ts';
import { scheduleEntries, schedules, scheduleTargetEntries } from '#shared/catalogue/schedules.ts';
import { streamConsumerEntries, streamConsumers } from '#shared/catalogue/stream-consumers.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';
import { collectionCeiling } from '#shared/domain/ceilings.ts';
import { feeScheduleFromEnvironment } from '#shared/domain/fees.ts';
import { requestLimits } from '#shared/http/request-limits.ts';
import { stageTemplateOf } from '#test/support/stage-template.ts';

/** The stage registry of cdk.json, as `cdk synth` reads it. */
const registry = readRegistryFile() as Record<string, Record<string, unknown>>;

/** The stack's managed policy for X-Ray, which every function's role has. */
function tracingPolicyId(template: Template): string {
  const policies = Object.entries(template.findResources('AWS::IAM::ManagedPolicy')).filter(([, policy]) =>
    JSON.stringify(policy.Properties.PolicyDocument).includes('xray:PutTraceSegments'),
  );
  expect(policies).toHaveLength(1);
  const [id, policy] = policies[0] as [string, { Properties: { PolicyDocument: { Statement: unknown[] } } }];
  expect(policy.Properties.PolicyDocument.Statement).toHaveLength(1);
  return id;
}

/** The registry with one stage's entry changed. */
const registryWith = (stage: string, entry: Record<string, unknown>) => ({
  stages: { ...registry, [stage]: entry },
});

// Bundling is skipped: these tests are about the template, and esbuild would add seconds per function.
const appFor = (context: Record<string, unknown>) =>
  new App({ context: { 'aws:cdk:bundling-stacks': [], stages: registry, ...context } });

/**
 * Each stage is built and synthesized once. Its cdk-nag findings do not fail this synth: the
 * cdk-nag tests below list them by name, and the other tests stay about the template.
 */
function build(stage: string, context: Record<string, unknown> = {}) {
  const app = appFor({ stage, [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false, ...context });
  const stack = buildPaymentsApp(app);
  return { app, stack, template: stageTemplateOf(stack) };
}

/** Every function of the stage: one per route, worker, schedule, schedule target, stream consumer and IoT rule set. */
const functionEntries = [
  ...endpointEntries,
  ...workerEntries,
  ...scheduleEntries,
  ...scheduleTargetEntries,
  ...deviceRuleEntries,
  ...streamConsumerEntries,
];

const dev = build('dev');
const prod = build('prod');

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;
const resourcesOf = (template: Template, type: string): [string, Json][] =>
  Object.entries(template.findResources(type));
const resourceOf = (template: Template, type: string, logicalId: string): Json =>
  template.findResources(type)[logicalId];

const functionsNamed = (template: Template, stage: string, name: string): [string, Json][] =>
  resourcesOf(template, 'AWS::Lambda::Function').filter(
    ([, fn]) => fn.Properties.FunctionName === `${stackName(stage)}-${name}`,
  );

/** The function of a route or a worker. */
function functionOf(template: Template, stage: string, name: string): [string, Json] {
  const found = functionsNamed(template, stage, name);
  expect(found, `function ${name}`).toHaveLength(1);
  return found[0] as [string, Json];
}

const queuesNamed = (template: Template, queueName: string): [string, Json][] =>
  resourcesOf(template, 'AWS::SQS::Queue').filter(([, queue]) => queue.Properties.QueueName === queueName);

/**
 * The alarms on messages arriving in a queue: the rise of its visible messages, so that the alarm
 * goes back to OK between incidents and a second one raises it again.
 */
const arrivalAlarmsOf = (template: Template, queueId: string): [string, Json][] =>
  resourcesOf(template, 'AWS::CloudWatch::Alarm').filter(([, alarm]) => {
    const metrics: Json[] = alarm.Properties.Metrics ?? [];
    const visible = metrics.find(
      (metric) =>
        metric.MetricStat?.Metric.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        metric.MetricStat.Metric.Dimensions[0].Value['Fn::GetAtt']?.[0] === queueId,
    );
    return (
      visible !== undefined &&
      metrics.some(
        (metric) => metric.Expression === `DIFF(FILL(${visible.Id}, 0))` && metric.ReturnData !== false,
      )
    );
  });

function queueOf(template: Template, queueName: string): [string, Json] {
  const found = queuesNamed(template, queueName);
  expect(found, `queue ${queueName}`).toHaveLength(1);
  return found[0] as [string, Json];
}

const queueEntries = Object.entries(queues) as [QueueName, QueueDefinition][];
const sourceQueueName = (stage: string, queue: QueueName) => `${stackName(stage)}-${queue}`;

/** Every IAM statement attached to the function's role. */
function statementsOf(template: Template, fn: Json): Json[] {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return resourcesOf(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: Json) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
}

const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

function tableActionsOf(template: Template, fn: Json): Set<string> {
  return new Set(
    statementsOf(template, fn)
      .flatMap((statement) => asArray<string>(statement.Action))
      .filter((action) => action.startsWith('dynamodb:')),
  );
}

/** The DynamoDB actions an access list declares (`table:GetItem` → `dynamodb:GetItem`). */
const declaredTableActions = (access: readonly AwsAccess[]) =>
  new Set(
    access.filter((granted) => granted.startsWith('table:')).map((granted) => `dynamodb:${granted.slice(6)}`),
  );

/** The queues a function may send to, by the logical ids of their resources. */
function queuesSentToBy(template: Template, fn: Json): Set<string> {
  return new Set(
    statementsOf(template, fn)
      .filter((statement) => asArray<string>(statement.Action).includes('sqs:SendMessage'))
      .flatMap((statement) => asArray<Json>(statement.Resource).map((resource) => resource['Fn::GetAtt'][0])),
  );
}

/** The queue policy statement that refuses any request not made over TLS. */
function expectRefusesPlainHttp(template: Template, queueId: string): void {
  const statements = resourcesOf(template, 'AWS::SQS::QueuePolicy')
    .filter(([, policy]) => policy.Properties.Queues.some((queue: Json) => queue.Ref === queueId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
  expect(statements, queueId).toContainEqual({
    Action: 'sqs:*',
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    Effect: 'Deny',
    Principal: { AWS: '*' },
    Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
  });
}

/** A function outside any stage, for grants that the route table does not exercise. */
function standAloneFunction(
  stack: Stack,
  id: string,
  access: AwsAccess[],
  resources: ServiceResources,
  sandbox = false,
) {
  return new ServiceFunction(stack, id, {
    entry: endpoints.listStores.entry,
    invokedBy: 'api',
    functionName: `grants-${id}`,
    access,
    resources,
    timeout: Duration.seconds(3),
    sandbox,
    logRetention: RetentionDays.ONE_DAY,
    logRemovalPolicy: RemovalPolicy.DESTROY,
  });
}

const logicalIdOf = (fn: ServiceFunction) => Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);

/** The full path of an API Gateway resource, rebuilt from its PathPart and ParentId chain. */
function pathOf(template: Template, resourceRef: Json): string {
  const parts: string[] = [];
  let ref = resourceRef;
  while (ref?.Ref) {
    const resource = resourceOf(template, 'AWS::ApiGateway::Resource', ref.Ref);
    parts.unshift(resource.Properties.PathPart);
    ref = resource.Properties.ParentId;
  }
  return `/${parts.join('/')}`;
}

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

describe('the functions', () => {
  it('are one arm64 nodejs22.x function per route and per worker, and nothing else', () => {
    dev.template.resourceCountIs('AWS::Lambda::Function', functionEntries.length);
    for (const [name] of functionEntries) {
      const [, fn] = functionOf(dev.template, 'dev', name);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
        TracingConfig: { Mode: 'Active' },
      });
      // Stack traces are mapped when formatted (infra/lambda/source-mapped-stack-traces.ts); Node's
      // own source maps would decode the whole map on every cold start.
      expect(fn.Properties.Environment?.Variables?.NODE_OPTIONS, name).toBeUndefined();
    }
  });

  it("of routes time out before API Gateway's 29 s", () => {
    // A streamed page's function has its own, longer, limit: see "streamed routes" below.
    for (const [routeName] of endpointEntries.filter(([, route]) => !('page' in route && route.streams))) {
      const [, fn] = functionOf(dev.template, 'dev', routeName);
      expect(fn.Properties.Timeout, routeName).toBe(apiFunctionTimeout.toSeconds());
      expect(fn.Properties.Timeout).toBeLessThan(29);
    }
  });

  it('log to their own log group with a retention, and may write to no other', () => {
    for (const [name] of functionEntries) {
      const [, fn] = functionOf(dev.template, 'dev', name);
      const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref;
      expect(
        resourceOf(dev.template, 'AWS::Logs::LogGroup', logGroupId).Properties.RetentionInDays,
      ).toBeGreaterThan(0);
      const logStatements = statementsOf(dev.template, fn).filter((statement) =>
        asArray<string>(statement.Action).some((action) => action.startsWith('logs:')),
      );
      expect(logStatements.map((statement) => statement.Resource)).toEqual([
        { 'Fn::GetAtt': [logGroupId, 'Arn'] },
      ]);
      // The one managed policy a role has is the stack's X-Ray policy, which holds nothing else.
      const role = resourceOf(dev.template, 'AWS::IAM::Role', fn.Properties.Role['Fn::GetAtt'][0]);
      expect(role.Properties.ManagedPolicyArns).toEqual([{ Ref: tracingPolicyId(dev.template) }]);
    }
  });

  it("may use exactly the table actions of their route's access, on the stage's table only", () => {
    for (const [, fn] of resourcesOf(dev.template, 'AWS::Lambda::Function')) {
      expect(tableActionsOf(dev.template, fn).has('dynamodb:Scan'), fn.Properties.FunctionName).toBe(false);
    }
    const [tableId] = resourcesOf(dev.template, 'AWS::DynamoDB::Table')[0] as [string, Json];
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    for (const [routeName, route] of endpointEntries) {
      const [, fn] = functionOf(dev.template, 'dev', routeName);
      const actions = tableActionsOf(dev.template, fn);
      for (const statement of statementsOf(dev.template, fn)) {
        if (!asArray<string>(statement.Action).some((action) => action.startsWith('dynamodb:'))) continue;
        // The table itself, or queries on its declared indexes by name: never `index/*`, never Scan.
        expect([
          [tableArn],
          tableDefinition.globalSecondaryIndexes.map((index) => ({
            'Fn::Join': ['', [tableArn, `/index/${index.name}`]],
          })),
        ]).toContainEqual(asArray(statement.Resource));
        if (JSON.stringify(statement.Resource) !== JSON.stringify(tableArn)) {
          expect(statement.Action).toBe('dynamodb:Query');
        }
      }
      const declared = declaredTableActions(route.access);
      expect([...actions].sort(), routeName).toEqual([...declared].sort());
      expect(fn.Properties.Environment.Variables.TABLE_NAME !== undefined, `${routeName} TABLE_NAME`).toBe(
        declared.size > 0,
      );
    }
  });

  it('of authenticated routes can read the table that holds the API keys', () => {
    for (const [routeName] of endpointEntries.filter(([, route]) => route.caller !== 'public')) {
      const [, fn] = functionOf(dev.template, 'dev', routeName);
      expect(tableActionsOf(dev.template, fn).has('dynamodb:GetItem'), routeName).toBe(true);
      expect(fn.Properties.Environment.Variables.TABLE_NAME, routeName).toBeDefined();
    }
  });

  it('given table actions one by one, get those and no other: no delete or batch write unless declared', () => {
    const stack = new Stack(appFor({}), 'Grants');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const withAccess = (id: string, access: AwsAccess[]) =>
      standAloneFunction(stack, id, access, { table, queues: new Map() });
    const updater = withAccess('Updater', ['table:GetItem', 'table:UpdateItem']);
    const deleter = withAccess('Deleter', ['table:DeleteItem', 'table:ConditionCheckItem']);
    const reader = withAccess('Reader', ['table:GetItem', 'table:Query']);
    const template = stageTemplateOf(stack);
    const fnOf = (fn: ServiceFunction) => resourceOf(template, 'AWS::Lambda::Function', logicalIdOf(fn));

    expect([...tableActionsOf(template, fnOf(updater))].sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
    ]);
    expect([...tableActionsOf(template, fnOf(deleter))].sort()).toEqual([
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
    ]);
    expect([...tableActionsOf(template, fnOf(reader))].sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:Query',
    ]);
    // Only a function that queries is given the indexes.
    const indexGrants = (fn: ServiceFunction) =>
      statementsOf(template, fnOf(fn)).filter((statement) =>
        JSON.stringify(statement.Resource).includes('/index/'),
      );
    expect(indexGrants(updater)).toEqual([]);
    expect(indexGrants(reader)).toHaveLength(1);
  });
});

describe('streamed routes', () => {
  const streamed = endpointEntries.filter(([, route]) => 'page' in route && route.streams);

  it('include the CSV export', () => {
    expect(streamed.map(([name]) => name)).toContain('exportTransactionsPage');
  });

  it.each(streamed)(
    '%s is integrated in STREAM mode, and its function times out before its integration, within 15 minutes',
    (name, route) => {
      const [functionId, fn] = functionOf(dev.template, 'dev', name);
      const method = resourcesOf(dev.template, 'AWS::ApiGateway::Method').find(
        ([, candidate]) =>
          candidate.Properties.HttpMethod === route.method &&
          pathOf(dev.template, candidate.Properties.ResourceId) === route.path,
      )?.[1];
      expect(method, name).toBeDefined();
      const integration = method.Properties.Integration;
      expect(integration.Type).toBe('AWS_PROXY');
      expect(integration.ResponseTransferMode).toBe('STREAM');
      const uri = JSON.stringify(integration.Uri);
      expect(uri).toContain('2021-11-15/functions/');
      expect(uri).toContain('/response-streaming-invocations');
      expect(uri).toContain(functionId);
      const integrationSeconds = integration.TimeoutInMillis / 1000;
      expect(fn.Properties.Timeout).toBeGreaterThan(29);
      expect(fn.Properties.Timeout).toBeLessThan(integrationSeconds);
      expect(integrationSeconds).toBeLessThanOrEqual(15 * 60);
    },
  );

  it('and only they: every other route is buffered, its integration the 29 s default', () => {
    const methods = resourcesOf(dev.template, 'AWS::ApiGateway::Method');
    const streams = methods.filter(
      ([, method]) => method.Properties.Integration?.ResponseTransferMode === 'STREAM',
    );
    expect(streams).toHaveLength(streamed.length);
  });
});

describe('the REST API', () => {
  it.each([
    ['dev', dev, endpointEntries],
    ['prod', prod, endpointEntries.filter(([, route]) => !route.sandboxOnly)],
  ])(
    'on %s has a method for every route deployed there, and no other, each calling its own function',
    (stage, { template }, deployed) => {
      const methods = resourcesOf(template, 'AWS::ApiGateway::Method');
      const found = methods.map(([, method]) => {
        const props = method.Properties;
        expect(props.AuthorizationType).toBe('NONE');
        expect(props.Integration.Type).toBe('AWS_PROXY');
        const uriParts: Json[] = props.Integration.Uri['Fn::Join'][1];
        const invoked = uriParts.find(
          (part) => part?.['Fn::GetAtt']?.[1] === 'Arn' || (part?.Ref && !part.Ref.startsWith('AWS::')),
        );
        // A money path's method invokes its function's `live` alias.
        const alias = invoked.Ref ? resourceOf(template, 'AWS::Lambda::Alias', invoked.Ref) : undefined;
        const functionId = alias ? alias.Properties.FunctionName.Ref : invoked['Fn::GetAtt'][0];
        return {
          route: `${props.HttpMethod} ${pathOf(template, props.ResourceId)}`,
          functionName: resourceOf(template, 'AWS::Lambda::Function', functionId).Properties.FunctionName,
        };
      });
      expect(found.sort((a, b) => a.route.localeCompare(b.route))).toEqual(
        deployed
          .map(([name, route]) => ({
            route: `${route.method} ${route.path}`,
            functionName: `${stackName(stage)}-${name}`,
          }))
          .sort((a, b) => a.route.localeCompare(b.route)),
      );
    },
  );

  it('throttles the whole stage, logs errors only and never bodies', () => {
    dev.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: stageThrottling.rateLimit,
          ThrottlingBurstLimit: stageThrottling.burstLimit,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ]),
    });
  });

  it('writes JSON access logs to a log group with a retention, and traces with X-Ray', () => {
    const [, stage] = resourcesOf(dev.template, 'AWS::ApiGateway::Stage')[0] as [string, Json];
    expect(stage.Properties.TracingEnabled).toBe(true);
    const fields = JSON.parse(stage.Properties.AccessLogSetting.Format);
    expect(fields).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    const logGroupId = stage.Properties.AccessLogSetting.DestinationArn['Fn::GetAtt'][0];
    expect(
      resourceOf(dev.template, 'AWS::Logs::LogGroup', logGroupId).Properties.RetentionInDays,
    ).toBeGreaterThan(0);
  });

  const expectedGatewayResponses = [
    { type: 'DEFAULT_4XX', status: undefined, id: 'bad_request' },
    { type: 'DEFAULT_5XX', status: undefined, id: 'internal_error' },
    { type: 'MISSING_AUTHENTICATION_TOKEN', status: '404', id: 'not_found', message: 'Route not found' },
    { type: 'RESOURCE_NOT_FOUND', status: '404', id: 'not_found', message: 'Route not found' },
    { type: 'THROTTLED', status: '429', id: 'too_many_requests' },
    { type: 'REQUEST_TOO_LARGE', status: '413', id: 'request_too_large' },
    { type: 'WAF_FILTERED', status: '403', id: 'forbidden' },
    { type: 'INTEGRATION_TIMEOUT', status: '504' },
  ];

  it.each(expectedGatewayResponses)(
    'answers $type with status $status in the spec error format',
    (expected) => {
      const found = resourcesOf(dev.template, 'AWS::ApiGateway::GatewayResponse').filter(
        ([, response]) => response.Properties.ResponseType === expected.type,
      );
      expect(found).toHaveLength(1);
      const props = (found[0] as [string, Json])[1].Properties;
      expect(props.StatusCode).toBe(expected.status);
      expect(Object.keys(props.ResponseTemplates)).toEqual(['application/json']);
      // The gateway fills $context.error.messageString with a quoted JSON string.
      const body = JSON.parse(
        props.ResponseTemplates['application/json'].replaceAll('$context.error.messageString', '"a message"'),
      );
      expect(Object.keys(body).sort()).toEqual(['extras', 'id', 'message']);
      expect(body.extras).toBeNull();
      expect(typeof body.message).toBe('string');
      if (expected.id) expect(body.id).toBe(expected.id);
      if (expected.message) expect(body.message).toBe(expected.message);
    },
  );

  it('is behind a WAF web ACL that rate-limits per API key id and per IP', () => {
    const [aclId, acl] = resourcesOf(dev.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const [stageId] = resourcesOf(dev.template, 'AWS::ApiGateway::Stage')[0] as [string, Json];
    const [, association] = resourcesOf(dev.template, 'AWS::WAFv2::WebACLAssociation')[0] as [string, Json];
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`{"Ref":"${stageId}"}`);

    const rateRules = acl.Properties.Rules.filter((rule: Json) => rule.Statement.RateBasedStatement);
    const statements = rateRules.map((rule: Json) => rule.Statement.RateBasedStatement);
    expect(acl.Properties.Scope).toBe('REGIONAL');
    expect(statements).toContainEqual(
      expect.objectContaining({
        AggregateKeyType: 'CUSTOM_KEYS',
        CustomKeys: [{ Header: expect.objectContaining({ Name: 'x-api-key-id' }) }],
      }),
    );
    expect(statements).toContainEqual(expect.objectContaining({ AggregateKeyType: 'IP' }));
    for (const rule of rateRules) {
      expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(429);
    }
  });

  it("rate-limits each key id and each IP to a share of the stage's throttle, so a few callers cannot exhaust it", () => {
    const [, acl] = resourcesOf(dev.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const stagePerMinute = stageThrottling.rateLimit * 60;
    for (const rule of acl.Properties.Rules.filter((rule: Json) => rule.Statement.RateBasedStatement)) {
      const { Limit, EvaluationWindowSec } = rule.Statement.RateBasedStatement;
      expect(EvaluationWindowSec).toBe(60);
      // Four callers at their limit still leave the stage's throttle unreached.
      expect(4 * Limit, rule.Name).toBeLessThan(stagePerMinute);
    }
  });

  it('applies the common, known-bad-inputs and IP-reputation managed rule groups, and logs to WAF logs without keys', () => {
    const [aclId, acl] = resourcesOf(dev.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const groups = acl.Properties.Rules.filter((rule: Json) => rule.Statement.ManagedRuleGroupStatement).map(
      (rule: Json) => [rule.Statement.ManagedRuleGroupStatement, rule.OverrideAction],
    );
    expect(groups).toEqual(
      [...managedRuleGroups].map((name) => [
        expect.objectContaining({ VendorName: 'AWS', Name: name }),
        { None: {} },
      ]),
    );
    const [, logging] = resourcesOf(dev.template, 'AWS::WAFv2::LoggingConfiguration')[0] as [string, Json];
    expect(logging.Properties.ResourceArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(logging.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'x-api-key' } }]);
    const groupId = logging.Properties.LogDestinationConfigs[0]['Fn::GetAtt'][0];
    expect(resourceOf(dev.template, 'AWS::Logs::LogGroup', groupId).Properties.LogGroupName).toBe(
      `aws-waf-logs-${stackName('dev')}`,
    );
  });

  it('refuses at the WAF, in the error format, what the local host refuses: bodies and targets over the limits', () => {
    const [, acl] = resourcesOf(dev.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const sizeRules = acl.Properties.Rules.filter((rule: Json) => rule.Statement.SizeConstraintStatement);
    const limitOf = (field: string) =>
      sizeRules.find((rule: Json) => rule.Statement.SizeConstraintStatement.FieldToMatch[field]);
    const body = limitOf('Body');
    expect(body.Statement.SizeConstraintStatement).toMatchObject({
      ComparisonOperator: 'GT',
      Size: requestLimits.bodyBytes,
      // A body larger than WAF inspects counts as over the limit, never as allowed.
      FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
    });
    expect(body.Action.Block.CustomResponse.ResponseCode).toBe(413);
    const bodyKey = body.Action.Block.CustomResponse.CustomResponseBodyKey;
    expect(JSON.parse(acl.Properties.CustomResponseBodies[bodyKey].Content)).toEqual({
      id: 'request_too_large',
      message: expect.any(String),
      extras: null,
    });
    for (const field of ['QueryString', 'UriPath']) {
      const rule = limitOf(field);
      expect(rule.Statement.SizeConstraintStatement.Size).toBe(requestLimits.targetChars);
      expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(414);
    }
    expect(requestLimits.bodyBytes).toBeLessThanOrEqual(16 * 1024);
  });

  it("outputs the API URL, the table name, the alarm topic and the operators' role", () => {
    expect(Object.keys(dev.template.toJSON().Outputs).sort()).toEqual([
      'AlarmTopicArn',
      'ApiUrl',
      'OperatorRoleArn',
      'TableName',
    ]);
  });
});

describe('the queues', () => {
  it.each(queueEntries)(
    '%s is encrypted, refuses plain HTTP and hides a received message for its visibility timeout',
    (name, definition) => {
      const [queueId, queue] = queueOf(dev.template, sourceQueueName('dev', name));
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      expect(queue.Properties.VisibilityTimeout).toBe(definition.visibilityTimeoutSeconds);
      expectRefusesPlainHttp(dev.template, queueId);
    },
  );

  it.each(queueEntries)(
    '%s moves a message to its own encrypted dead-letter queue after maxReceiveCount receives',
    (name, definition) => {
      const [, queue] = queueOf(dev.template, sourceQueueName('dev', name));
      const [deadLettersId, deadLetters] = queueOf(
        dev.template,
        deadLetterQueueName(sourceQueueName('dev', name)),
      );
      expect(queue.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId, 'Arn'] },
        maxReceiveCount: definition.maxReceiveCount,
      });
      expect(deadLetters.Properties.SqsManagedSseEnabled).toBe(true);
      expect(deadLetters.Properties.MessageRetentionPeriod).toBe(14 * 24 * 60 * 60);
      expect(deadLetters.Properties.RedrivePolicy).toBeUndefined();
      expectRefusesPlainHttp(dev.template, deadLettersId);
    },
  );

  it.each(queueEntries)('%s raises an alarm as soon as messages arrive in its dead-letter queue', (name) => {
    const [deadLettersId] = queueOf(dev.template, deadLetterQueueName(sourceQueueName('dev', name)));
    const alarms = arrivalAlarmsOf(dev.template, deadLettersId);
    expect(alarms).toHaveLength(1);
    expect((alarms[0] as [string, Json])[1].Properties).toMatchObject({
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });
});

describe('the workers', () => {
  it.each(workerEntries)(
    '%s is fed by its queue in batches of its size, reporting failed records one by one',
    (name, worker) => {
      const [functionId] = functionOf(dev.template, 'dev', name);
      const [queueId] = queueOf(dev.template, sourceQueueName('dev', worker.queue));
      const mappings = resourcesOf(dev.template, 'AWS::Lambda::EventSourceMapping').filter(
        ([, mapping]) => mapping.Properties.FunctionName.Ref === functionId,
      );
      expect(mappings).toHaveLength(1);
      expect((mappings[0] as [string, Json])[1].Properties).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
        BatchSize: worker.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    },
  );

  it.each(workerEntries)(
    "%s times out within a sixth of its queue's visibility timeout, so a batch is not received twice",
    (name, worker) => {
      const [, fn] = functionOf(dev.template, 'dev', name);
      const [, queue] = queueOf(dev.template, sourceQueueName('dev', worker.queue));
      expect(fn.Properties.Timeout).toBeGreaterThanOrEqual(1);
      expect(fn.Properties.Timeout * 6).toBeLessThanOrEqual(queue.Properties.VisibilityTimeout);
    },
  );

  it.each(workerEntries)('%s may delete messages from its own queue only', (name, worker) => {
    const [, fn] = functionOf(dev.template, 'dev', name);
    const [queueId] = queueOf(dev.template, sourceQueueName('dev', worker.queue));
    const consuming = statementsOf(dev.template, fn).filter((statement) =>
      asArray<string>(statement.Action).includes('sqs:DeleteMessage'),
    );
    expect(consuming.map((statement) => statement.Resource)).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
  });

  it.each(workerEntries)(
    '%s has its own queue URL, to change the visibility of the messages it received',
    (name, worker) => {
      const [, fn] = functionOf(dev.template, 'dev', name);
      const [queueId] = queueOf(dev.template, sourceQueueName('dev', worker.queue));
      expect(fn.Properties.Environment.Variables[queueUrlVariable(worker.queue)]).toEqual({ Ref: queueId });
      const visibility = statementsOf(dev.template, fn).filter((statement) =>
        asArray<string>(statement.Action).includes('sqs:ChangeMessageVisibility'),
      );
      expect(visibility.map((statement) => statement.Resource)).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
    },
  );
});

describe("the table's stream", () => {
  it('carries every change with its old and new images, on every stage', () => {
    for (const { template } of [dev, prod]) {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        StreamSpecification: { StreamViewType: tableDefinition.streamViewType },
      });
    }
  });

  it.each(streamConsumerEntries)(
    '%s reads it from the oldest record, only the changes of its filter, bisecting and retrying a failure, then parking it in a queue that alarms',
    (name, consumer) => {
      const [functionId] = functionOf(dev.template, 'dev', name);
      const [tableId] = resourcesOf(dev.template, 'AWS::DynamoDB::Table')[0] as [string, Json];
      const mappings = resourcesOf(dev.template, 'AWS::Lambda::EventSourceMapping').filter(
        ([, mapping]) => mapping.Properties.FunctionName.Ref === functionId,
      );
      expect(mappings).toHaveLength(1);
      const properties = (mappings[0] as [string, Json])[1].Properties;
      expect(properties).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: consumer.batchSize,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: 10,
        FilterCriteria: { Filters: consumer.filters.map((filter) => ({ Pattern: JSON.stringify(filter) })) },
      });
      const failures = properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];
      expect(resourceOf(dev.template, 'AWS::SQS::Queue', failures)).toBeDefined();
      expect(arrivalAlarmsOf(dev.template, failures)).toHaveLength(1);
    },
  );

  it('dispatches only payment requests leaving pending, payment requests and messages recorded pending, to the webhook, expiry and SMS queues', () => {
    const { dispatchTableChanges } = streamConsumers;
    expect(dispatchTableChanges.filters).toEqual([
      expect.objectContaining({
        eventName: ['MODIFY'],
        dynamodb: expect.objectContaining({
          OldImage: expect.objectContaining({ status: { S: ['pending'] } }),
        }),
      }),
      {
        eventName: ['INSERT'],
        dynamodb: { NewImage: { entity: { S: ['message', 'payment_request'] }, status: { S: ['pending'] } } },
      },
    ]);
    expect(dispatchTableChanges.access).toContain('queue:send:webhooks');
    expect(dispatchTableChanges.access).toContain('queue:send:sms');
    expect(dispatchTableChanges.access).toContain('queue:send:paymentExpiry');
  });
});

describe('webhook delivery', () => {
  const webhooksQueue = () => queueOf(dev.template, sourceQueueName('dev', 'webhooks'));

  it('parks a message in the dead-letter queue only after 8 receives, twice the attempts the delivery record counts, and raises the alarm', () => {
    const [webhooksId, queue] = webhooksQueue();
    const [deadLettersId, deadLetters] = queueOf(
      dev.template,
      deadLetterQueueName(sourceQueueName('dev', 'webhooks')),
    );
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId, 'Arn'] },
      maxReceiveCount: 8,
    });
    for (const [id, encrypted] of [
      [webhooksId, queue],
      [deadLettersId, deadLetters],
    ]) {
      expect(encrypted.Properties.SqsManagedSseEnabled).toBe(true);
      expectRefusesPlainHttp(dev.template, id);
    }
    const alarms = arrivalAlarmsOf(dev.template, deadLettersId);
    expect(alarms.map(([, alarm]) => alarm.Properties.AlarmName)).toEqual([
      `${sourceQueueName('dev', 'webhooks')}-dead-letters`,
    ]);
  });

  it('is done by a sender fed ten messages at a time, reporting failed ones, within 40 s of a 240 s visibility', () => {
    const [functionId, fn] = functionOf(dev.template, 'dev', 'sendWebhooks');
    const [queueId, queue] = webhooksQueue();
    const [, mapping] = resourcesOf(dev.template, 'AWS::Lambda::EventSourceMapping').find(
      ([, candidate]) => candidate.Properties.FunctionName.Ref === functionId,
    ) as [string, Json];
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(fn.Properties.Timeout).toBe(40);
    expect(queue.Properties.VisibilityTimeout).toBe(240);
    // The receiver gets 30 s; the sender must outlast it to record the attempt.
    expect(fn.Properties.Timeout).toBeGreaterThan(30);
  });

  it('lets the sender change visibility on the webhook queue only, and send to no queue', () => {
    const [, fn] = functionOf(dev.template, 'dev', 'sendWebhooks');
    const [webhooksId] = webhooksQueue();
    const sqsStatements = statementsOf(dev.template, fn).filter((statement) =>
      asArray<string>(statement.Action).some((action) => action.startsWith('sqs:')),
    );
    expect(sqsStatements.flatMap((statement) => asArray(statement.Action))).toContain(
      'sqs:ChangeMessageVisibility',
    );
    for (const statement of sqsStatements) {
      expect(statement.Resource).toEqual({ 'Fn::GetAtt': [webhooksId, 'Arn'] });
    }
    expect(queuesSentToBy(dev.template, fn)).toEqual(new Set());
    expect(workers.sendWebhooks.access).not.toContain('queue:send:webhooks');
  });

  it.each(['dispatchTableChanges', 'resendWebhookDelivery'] as const)(
    'lets %s send to the webhook queue, on prod too',
    (name) => {
      for (const [stage, { template }] of [
        ['dev', dev],
        ['prod', prod],
      ] as const) {
        const [, fn] = functionOf(template, stage, name);
        const [webhooksId] = queueOf(template, sourceQueueName(stage, 'webhooks'));
        expect(queuesSentToBy(template, fn), `${name} on ${stage}`).toEqual(new Set([webhooksId]));
      }
    },
  );
});

describe('the schedules', () => {
  const rulesOf = (template: Template) => resourcesOf(template, 'AWS::Events::Rule');

  it.each(scheduleEntries)('%s runs its function on its EventBridge rule, and nothing else does', (name) => {
    const [functionId] = functionOf(dev.template, 'dev', name);
    const rules = rulesOf(dev.template).filter(([, rule]) =>
      rule.Properties.Targets.some((target: Json) => target.Arn?.['Fn::GetAtt']?.[0] === functionId),
    );
    expect(rules).toHaveLength(1);
    const [, rule] = rules[0] as [string, Json];
    expect(rule.Properties).toMatchObject({
      Name: `${stackName('dev')}-${name}`,
      ScheduleExpression: schedules[name].expression,
      State: 'ENABLED',
    });
    expect(rule.Properties.Targets).toHaveLength(1);
    const permissions = resourcesOf(dev.template, 'AWS::Lambda::Permission').filter(
      ([, permission]) => permission.Properties.FunctionName?.['Fn::GetAtt']?.[0] === functionId,
    );
    expect(permissions.map(([, permission]) => permission.Properties)).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [(rules[0] as [string, Json])[0], 'Arn'] },
      }),
    ]);
  });

  it('sweep unsettled payouts every minute, each run ending before the next is due', () => {
    expect(schedules.sweepUnsettledPayouts.expression).toBe('rate(1 minute)');
    const [, fn] = functionOf(dev.template, 'dev', 'sweepUnsettledPayouts');
    expect(fn.Properties.Timeout).toBeLessThan(60);
  });

  it('are one rule per schedule on every stage, and no other', () => {
    expect(rulesOf(dev.template)).toHaveLength(scheduleEntries.length);
    expect(rulesOf(prod.template)).toHaveLength(
      scheduleEntries.filter(([, schedule]) => !schedule.sandboxOnly).length,
    );
  });
});

describe('sandbox-only parts', () => {
  it('are all deployed on dev, and left out of prod', () => {
    for (const [name, entry] of functionEntries) {
      expect(functionsNamed(dev.template, 'dev', name), `${name} on dev`).toHaveLength(1);
      expect(functionsNamed(prod.template, 'prod', name), `${name} on prod`).toHaveLength(
        entry.sandboxOnly ? 0 : 1,
      );
    }
    for (const [name, definition] of queueEntries) {
      for (const stage of ['dev', 'prod'] as const) {
        const { template } = stage === 'dev' ? dev : prod;
        const expected = stage === 'prod' && definition.sandboxOnly ? 0 : 1;
        expect(queuesNamed(template, sourceQueueName(stage, name)), `${name} on ${stage}`).toHaveLength(
          expected,
        );
        expect(
          queuesNamed(template, deadLetterQueueName(sourceQueueName(stage, name))),
          `${name} dead letters on ${stage}`,
        ).toHaveLength(expected);
      }
    }
  });

  it('are announced to every function of dev by SANDBOX=true, and to no function of prod', () => {
    const functionsOf = (template: Template) => resourcesOf(template, 'AWS::Lambda::Function');
    expect(functionsOf(dev.template).length).toBeGreaterThan(0);
    for (const [, fn] of functionsOf(dev.template)) {
      expect(fn.Properties.Environment.Variables.SANDBOX, fn.Properties.FunctionName).toBe('true');
    }
    for (const [, fn] of functionsOf(prod.template)) {
      expect(fn.Properties.Environment.Variables, fn.Properties.FunctionName).not.toHaveProperty('SANDBOX');
    }
  });
});

describe('the queue:send access', () => {
  it('allows sqs:SendMessage on exactly that queue and gives the function its URL', () => {
    const stack = new Stack(appFor({}), 'QueueGrants');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const callbacks = new Queue(stack, 'Callbacks');
    // A second queue the function could be given by mistake; the route table has one queue today.
    const other = new Queue(stack, 'Other');
    const resources = {
      table,
      queues: new Map([
        ['sandboxCallbacks' as QueueName, callbacks],
        ['other' as QueueName, other],
      ]),
    };
    const sender = standAloneFunction(stack, 'Sender', ['queue:send:sandboxCallbacks'], resources);
    const bystander = standAloneFunction(stack, 'Bystander', ['table:GetItem'], resources);
    const template = stageTemplateOf(stack);
    const callbacksId = stack.getLogicalId(callbacks.node.defaultChild as CfnQueue);

    const senderFn = resourceOf(template, 'AWS::Lambda::Function', logicalIdOf(sender));
    expect(queuesSentToBy(template, senderFn)).toEqual(new Set([callbacksId]));
    const sqsStatements = statementsOf(template, senderFn).filter((statement) =>
      asArray<string>(statement.Action).some((action) => action.startsWith('sqs:')),
    );
    for (const statement of sqsStatements) {
      expect(statement.Resource).toEqual({ 'Fn::GetAtt': [callbacksId, 'Arn'] });
      expect(asArray<string>(statement.Action)).not.toContain('sqs:ReceiveMessage');
      expect(asArray<string>(statement.Action)).not.toContain('sqs:DeleteMessage');
    }
    expect(senderFn.Properties.Environment.Variables[queueUrlVariable('sandboxCallbacks')]).toEqual({
      Ref: callbacksId,
    });

    const bystanderFn = resourceOf(template, 'AWS::Lambda::Function', logicalIdOf(bystander));
    expect(queuesSentToBy(template, bystanderFn)).toEqual(new Set());
    expect(bystanderFn.Properties.Environment.Variables).not.toHaveProperty(
      queueUrlVariable('sandboxCallbacks'),
    );
  });

  it.each([
    ['dev', dev],
    ['prod', prod],
  ])("lets each function of %s send to the stage's queues its access names, and no other", (stage, built) => {
    const queueIds = new Map(
      queueEntries.flatMap(([name]) => {
        const found = queuesNamed(built.template, sourceQueueName(stage, name));
        return found.map(([id]) => [name, id] as const);
      }),
    );
    for (const [name, entry] of functionEntries) {
      const found = functionsNamed(built.template, stage, name);
      if (found.length === 0) continue;
      const [, fn] = found[0] as [string, Json];
      const named = entry.access.flatMap((access) =>
        access.startsWith('queue:send:') ? [access.slice('queue:send:'.length) as QueueName] : [],
      );
      // On sandbox stages, sending SMS is sending the sandbox gateway's delivery events.
      if (stage !== 'prod' && entry.access.includes('sms:send' as never)) named.push('smsEvents');
      // A sandbox-only queue is missing on prod, and so is the grant of a route that uses it there.
      const expected = named.flatMap((queue) => (queueIds.has(queue) ? [queueIds.get(queue)] : []));
      // A stream consumer's mapping parks failed records in its on-failure queue with the
      // function's role.
      if (name in streamConsumers) {
        const [functionId] = found[0] as [string, Json];
        const [, mapping] = resourcesOf(built.template, 'AWS::Lambda::EventSourceMapping').find(
          ([, candidate]) => candidate.Properties.FunctionName.Ref === functionId,
        ) as [string, Json];
        expected.push(mapping.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0]);
      }
      expect(queuesSentToBy(built.template, fn), name).toEqual(new Set(expected));
      for (const queue of named) {
        expect(fn.Properties.Environment.Variables[queueUrlVariable(queue)], `${name} ${queue}`).toEqual(
          queueIds.has(queue) ? { Ref: queueIds.get(queue) } : undefined,
        );
      }
    }
  });

  it('is left out where the stage has no such sandbox-only queue, and refused on a sandbox stage', () => {
    const stack = new Stack(appFor({}), 'MissingQueue');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const resources = { table, queues: new Map() };
    const access: AwsAccess[] = ['queue:send:sandboxCallbacks'];
    const production = standAloneFunction(stack, 'Production', access, resources, false);
    const template = stageTemplateOf(stack);
    const fn = resourceOf(template, 'AWS::Lambda::Function', logicalIdOf(production));
    expect(queuesSentToBy(template, fn)).toEqual(new Set());
    expect(fn.Properties.Environment.Variables).not.toHaveProperty(queueUrlVariable('sandboxCallbacks'));

    // Every sandbox stage has every sandbox-only queue: one missing there is a mistake in the stack.
    expect(() => standAloneFunction(stack, 'Sandbox', access, resources, true)).toThrow(
      /Sandbox needs queue sandboxCallbacks, which the stage does not have/,
    );
  });
});

describe('the webhook secrets key', () => {
  const keyOf = (template: Template) => {
    const keys = resourcesOf(template, 'AWS::KMS::Key').filter(([, key]) =>
      String(key.Properties.Description).includes('webhook signing secrets'),
    );
    expect(keys).toHaveLength(1);
    return keys[0] as [string, Json];
  };

  it.each([
    ['dev', dev],
    ['prod', prod],
  ])(
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

describe("stage settings from the stage's registry entry", () => {
  const feeSchedule = { wave: { percentBasisPoints: 80, fixedCents: 25 } };
  const collectionCeilings = { '1': 500_000_000, '3': null };
  // One given as JSON text, one with a trailing slash the stage must not double.
  const configured = build(
    'staging',
    registryWith('staging', {
      ...registry.staging,
      feeSchedule: JSON.stringify(feeSchedule),
      collectionCeilings,
      publicBaseUrl: 'https://pay.example.com/',
    }),
  );
  const synthWith = (settings: Record<string, unknown>) => () =>
    buildPaymentsApp(appFor({ stage: 'dev', ...registryWith('dev', { ...registry.dev, ...settings }) }));

  it('reach every function, in a form the functions read back as given', () => {
    const functions = resourcesOf(configured.template, 'AWS::Lambda::Function');
    expect(functions).toHaveLength(functionEntries.length);
    for (const [, fn] of functions) {
      const variables = fn.Properties.Environment.Variables;
      const name = fn.Properties.FunctionName;
      expect(variables.PUBLIC_BASE_URL, name).toBe('https://pay.example.com');
      expect(feeScheduleFromEnvironment(variables.FEE_SCHEDULE).wave, name).toEqual(feeSchedule.wave);
      expect(feeScheduleFromEnvironment(variables.FEE_SCHEDULE).orange, name).toEqual(
        feeScheduleFromEnvironment('').orange,
      );
      expect(collectionCeiling(1, variables.COLLECTION_CEILINGS), name).toBe(500_000_000);
      expect(collectionCeiling(3, variables.COLLECTION_CEILINGS), name).toBeNull();
    }
  });

  it('are not set when not given, so the functions keep their defaults', () => {
    for (const [, fn] of resourcesOf(dev.template, 'AWS::Lambda::Function')) {
      const variables = fn.Properties.Environment.Variables;
      for (const variable of ['FEE_SCHEDULE', 'COLLECTION_CEILINGS', 'PUBLIC_BASE_URL']) {
        expect(variables, `${fn.Properties.FunctionName} ${variable}`).not.toHaveProperty(variable);
      }
    }
  });

  it('paymentRequestMinLifetimeSeconds reaches the functions, and is whole seconds from 1 to 1 day', () => {
    const template = stageTemplateOf(synthWith({ paymentRequestMinLifetimeSeconds: 120 })());
    const [, fn] = functionOf(template, 'dev', 'createPaymentRequest');
    expect(fn.Properties.Environment.Variables.PAYMENT_REQUEST_MIN_LIFETIME_SECONDS).toBe('120');
    for (const refused of [0, 2.5, 86_401, 'soon']) {
      expect(synthWith({ paymentRequestMinLifetimeSeconds: refused })).toThrow(
        /Stage "dev" in cdk.json: paymentRequestMinLifetimeSeconds: must be a whole number of seconds from 1 to 1 day/,
      );
    }
  });

  it('escrowMinHoldSeconds reaches the functions, and is whole seconds from 1 to 90 days', () => {
    const template = stageTemplateOf(synthWith({ escrowMinHoldSeconds: 7200 })());
    const [, fn] = functionOf(template, 'dev', 'createPaymentRequest');
    expect(fn.Properties.Environment.Variables.ESCROW_MIN_HOLD_SECONDS).toBe('7200');
    for (const refused of [0, 1.5, 91 * 86_400, 'soon']) {
      expect(synthWith({ escrowMinHoldSeconds: refused })).toThrow(
        /Stage "dev" in cdk.json: escrowMinHoldSeconds: must be a whole number of seconds from 1 to 90 days/,
      );
    }
  });

  it('signInCodesPerHour and signInCodesPerAddressPerHour reach the dashboard’s sign-in function, and are whole numbers from 1 to 100000', () => {
    const template = stageTemplateOf(
      synthWith({ signInCodesPerHour: 200, signInCodesPerAddressPerHour: 60 })(),
    );
    const [, fn] = functionOf(template, 'dev', 'submitSignInPage');
    expect(fn.Properties.Environment.Variables.SIGN_IN_CODES_PER_HOUR).toBe('200');
    expect(fn.Properties.Environment.Variables.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR).toBe('60');
    for (const refused of [0, 2.5, 100_001, 'many']) {
      expect(synthWith({ signInCodesPerHour: refused })).toThrow(
        /Stage "dev" in cdk.json: signInCodesPerHour: must be a whole number of codes from 1 to 100000/,
      );
    }
    expect(synthWith({ signInCodesPerAddressPerHour: 0 })).toThrow(
      /Stage "dev" in cdk.json: signInCodesPerAddressPerHour: must be a whole number of codes from 1 to 100000/,
    );
  });

  it.each(['feeSchedule', 'collectionCeilings', 'publicBaseUrl', 'escrowMinHoldSeconds'])(
    'are refused as -c %s, which the next deploy would forget',
    (name) => {
      expect(() => buildPaymentsApp(appFor({ stage: 'dev', [name]: '{}' }))).toThrow(
        new RegExp(
          `-c ${name} is no longer read: set ${name} in the stage's entry of context.stages in cdk.json`,
        ),
      );
    },
  );

  it('may come already parsed, from cdk.json', () => {
    const stack = synthWith({ collectionCeilings: { '2': 0 } })();
    const [, fn] = functionOf(stageTemplateOf(stack), 'dev', 'listStores');
    expect(fn.Properties.Environment.Variables.COLLECTION_CEILINGS).toBe('{"2":0}');
  });

  it.each([
    ['{"wave": {', /^Stage "dev" in cdk.json: feeSchedule: not JSON/],
    ['[]', /^Stage "dev" in cdk.json: feeSchedule: must be a JSON object/],
    ['{"visa": {"percentBasisPoints": 100, "fixedCents": 0}}', /feeSchedule.*unknown payment method: visa/],
    ['{"wave": {"percentBasisPoints": 10001, "fixedCents": 0}}', /feeSchedule.*wave\.percentBasisPoints/],
    ['{"wave": {"percentBasisPoints": 100, "fixedCents": -1}}', /feeSchedule.*wave\.fixedCents/],
    ['{"wave": {"percentBasisPoints": 100}}', /feeSchedule.*wave\.fixedCents/],
    ['{"wave": null}', /^Stage "dev" in cdk.json: feeSchedule: wave must be an object/],
  ])('refuse feeSchedule %s, naming it', (value, message) => {
    expect(synthWith({ feeSchedule: value })).toThrow(message);
  });

  it.each([
    ['{"1": 2000', /^Stage "dev" in cdk.json: collectionCeilings: not JSON/],
    ['null', /^Stage "dev" in cdk.json: collectionCeilings: must be a JSON object/],
    ['{"1": -1}', /collectionCeilings.*level 1 must be a non-negative integer/],
    ['{"1": 1.5}', /collectionCeilings.*level 1 must be a non-negative integer/],
    ['{"1": "200000000"}', /collectionCeilings.*level 1 must be a non-negative integer/],
    ['{"gold": 100}', /collectionCeilings.*gold is not a verification level/],
  ])('refuse collectionCeilings %s, naming it', (value, message) => {
    expect(synthWith({ collectionCeilings: value })).toThrow(message);
  });

  it.each([
    ['pay.example.com', /^Stage "dev" in cdk.json: publicBaseUrl: not an absolute URL/],
    ['http://pay.example.com', /^Stage "dev" in cdk.json: publicBaseUrl: must be an https:\/\/ URL/],
    ['https://pay.example.com/?stage=dev', /^Stage "dev" in cdk.json: publicBaseUrl: must have no query/],
  ])('refuse publicBaseUrl %s, naming it', (value, message) => {
    expect(synthWith({ publicBaseUrl: value })).toThrow(message);
  });
});

describe('the alarms', () => {
  const alarmsOf = (template: Template) => resourcesOf(template, 'AWS::CloudWatch::Alarm');
  const topicOf = (template: Template) => {
    // Production has a second topic, for SMS delivery events; the alarm topic is named for alarms.
    const topics = resourcesOf(template, 'AWS::SNS::Topic').filter(([, topic]) =>
      String(topic.Properties.TopicName).endsWith('-alarms'),
    );
    expect(topics).toHaveLength(1);
    return topics[0] as [string, Json];
  };

  it('include any dashboard sign-in code refused by the stage’s hourly cap, from the metric the code counts', () => {
    const found = alarmsOf(dev.template).filter(
      ([, alarm]) => alarm.Properties.AlarmName === `${stackName('dev')}-sign-in-code-cap`,
    );
    expect(found).toHaveLength(1);
    expect((found[0] as [string, Json])[1].Properties).toMatchObject({
      Namespace: 'PartnerPayments',
      MetricName: 'SignInCodesRefused',
      Dimensions: expect.arrayContaining([
        { Name: 'limit', Value: 'stage' },
        { Name: 'service', Value: serviceName },
      ]),
      Statistic: 'Sum',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it("include the API's 5xx rate: over 1% of requests over 5 minutes", () => {
    const [stageId] = resourcesOf(dev.template, 'AWS::ApiGateway::Stage')[0] as [string, Json];
    const found = alarmsOf(dev.template).filter(
      ([, alarm]) => alarm.Properties.AlarmName === `${stackName('dev')}-api-5xx-rate`,
    );
    expect(found).toHaveLength(1);
    const props = (found[0] as [string, Json])[1].Properties;
    expect(props).toMatchObject({
      AlarmName: `${stackName('dev')}-api-5xx-rate`,
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: serverErrorRateAlarm.percent,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
    expect(serverErrorRateAlarm.percent).toBe(1);
    const byId = Object.fromEntries(props.Metrics.map((metric: Json) => [metric.Id, metric]));
    const expression = props.Metrics.find((metric: Json) => metric.Expression);
    expect(expression.Expression).toBe('IF(requests > 0, 100 * errors / requests, 0)');
    expect(expression.ReturnData ?? true).toBe(true);
    const dimensions = [
      { Name: 'ApiName', Value: stackName('dev') },
      { Name: 'Stage', Value: { Ref: stageId } },
    ];
    for (const [id, metricName] of [
      ['errors', '5XXError'],
      ['requests', 'Count'],
    ] as const) {
      expect(byId[id].ReturnData).toBe(false);
      expect(byId[id].MetricStat).toEqual({
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: metricName, Dimensions: dimensions },
        Period: 300,
        Stat: 'Sum',
      });
    }
  });

  it.each([
    ['dev', dev],
    ['prod', prod],
  ])(
    'on %s watch every function for the share of its calls that failed or were throttled, never for one error',
    (_stage, { template }) => {
      const functions = resourcesOf(template, 'AWS::Lambda::Function');
      expect(functions.length).toBeGreaterThan(0);
      for (const [functionId, fn] of functions) {
        // The function's own: a money path's alias has its alarm too (the rollout test's).
        const found = alarmsOf(template).filter(([, alarm]) =>
          (alarm.Properties.Metrics ?? []).some(
            (metric: Json) =>
              metric.MetricStat?.Metric.MetricName === 'Errors' &&
              metric.MetricStat.Metric.Dimensions.length === 1 &&
              metric.MetricStat.Metric.Dimensions[0].Value.Ref === functionId,
          ),
        );
        expect(found, fn.Properties.FunctionName).toHaveLength(1);
        const props = (found[0] as [string, Json])[1].Properties;
        const metricNames = props.Metrics.filter((metric: Json) => metric.MetricStat).map(
          (metric: Json) => metric.MetricStat.Metric.MetricName,
        );
        // Throttles are counted with errors: a function whose concurrency ran out failed its callers.
        expect(metricNames, fn.Properties.FunctionName).toContain('Throttles');
        expect(props.TreatMissingData).toBe('notBreaching');
        const expression = props.Metrics.find((metric: Json) => metric.Expression).Expression;
        if (metricNames.includes('Invocations')) {
          // A rate from a minimum number of failures, not one error in a minute.
          expect(expression).toMatch(/^IF\(errors \+ throttles >= \d+, 100 \* /);
          expect(props.Threshold).toBeGreaterThan(0);
        } else {
          // A schedule: failed runs in a row.
          expect(props.EvaluationPeriods).toBeGreaterThanOrEqual(2);
          expect(props.DatapointsToAlarm).toBe(props.EvaluationPeriods);
        }
      }
      expect(
        alarmsOf(template).filter(
          ([, alarm]) => alarm.Properties.MetricName === 'Throttles' && !alarm.Properties.Dimensions,
        ),
        'no alarm on the account-wide throttles, which another stage of the account raises',
      ).toEqual([]);
    },
  );

  it.each([
    ['dev', dev],
    ['prod', prod],
  ])(
    "on %s page through one composite alarm notifying the stage's topic; no other alarm notifies",
    (stage, { template }) => {
      const [topicId, topic] = topicOf(template);
      expect(topic.Properties.TopicName).toBe(alarmTopicName(stage));
      const alarms = alarmsOf(template);
      for (const [, alarm] of alarms) {
        const name = alarm.Properties.AlarmName;
        expect(alarm.Properties.AlarmActions ?? [], name).toEqual([]);
        expect(alarm.Properties.OKActions ?? [], name).toEqual([]);
      }
      const composites = resourcesOf(template, 'AWS::CloudWatch::CompositeAlarm');
      const paging = composites.filter(([, composite]) => composite.Properties.AlarmActions);
      expect(paging).toHaveLength(1);
      const [pagingId, pagingAlarm] = paging[0] as [string, Json];
      expect(pagingAlarm.Properties).toMatchObject({
        AlarmName: `${stackName(stage)}-page`,
        AlarmActions: [{ Ref: topicId }],
        OKActions: [{ Ref: topicId }],
      });
      // Every alarm reaches the paging one, directly or through its group's composite.
      const ruleText = (id: string) =>
        JSON.stringify(resourceOf(template, 'AWS::CloudWatch::CompositeAlarm', id).Properties.AlarmRule);
      const reached = new Set<string>();
      const visit = (id: string) => {
        for (const [candidateId] of [...alarms, ...composites]) {
          if (!reached.has(candidateId) && ruleText(id).includes(`"${candidateId}"`)) {
            reached.add(candidateId);
            if (composites.some(([compositeId]) => compositeId === candidateId)) visit(candidateId);
          }
        }
      };
      visit(pagingId);
      for (const [id, alarm] of alarms) expect(reached.has(id), alarm.Properties.AlarmName).toBe(true);
      for (const [, composite] of composites) {
        // The topic policy lets CloudWatch publish for alarms under this prefix only.
        expect(composite.Properties.AlarmName.startsWith(`${stackName(stage)}-`)).toBe(true);
      }
    },
  );

  it('notify a topic encrypted with a rotated key of its own, refusing plain HTTP, open to CloudWatch alone', () => {
    const [topicId, topic] = topicOf(dev.template);
    const keyId = topic.Properties.KmsMasterKeyId['Fn::GetAtt'][0];
    const key = resourceOf(dev.template, 'AWS::KMS::Key', keyId);
    expect(key.Properties.EnableKeyRotation).toBe(true);
    // CloudWatch cannot publish to a topic whose key does not let it encrypt.
    expect(key.Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      }),
    );

    const statements = resourcesOf(dev.template, 'AWS::SNS::TopicPolicy')
      .filter(([, policy]) => policy.Properties.Topics.some((ref: Json) => ref.Ref === topicId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: '*',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    const allows = statements.filter((statement: Json) => statement.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    const allow = allows[0];
    expect(allow).toMatchObject({
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Action: 'sns:Publish',
    });
    expect(allow.Condition.StringEquals).toEqual({ 'aws:SourceAccount': registry.dev?.account });
    const sourceArn = allow.Condition.ArnLike['aws:SourceArn']['Fn::Join'][1];
    expect(sourceArn.at(-1)).toBe(
      `:cloudwatch:${registry.dev?.region}:${registry.dev?.account}:alarm:${stackName('dev')}-*`,
    );
  });

  it('watch the API p99 latency, each queue oldest message, and the table throttles and system errors', () => {
    const byName = new Map(
      alarmsOf(dev.template).map(([, alarm]) => [alarm.Properties.AlarmName, alarm.Properties]),
    );
    const prefix = stackName('dev');
    expect(byName.get(`${prefix}-api-latency-p99`)).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Threshold: apiLatencyAlarm.thresholdMs,
      EvaluationPeriods: apiLatencyAlarm.periods,
    });
    for (const queueName of Object.keys(queues)) {
      expect(byName.get(`${prefix}-${queueName}-oldest-message`), queueName).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateAgeOfOldestMessage',
        Statistic: 'Maximum',
        Threshold: oldestMessageAlarmSeconds,
      });
    }
    const throttles = byName.get(`${prefix}-table-throttles`);
    expect(
      throttles.Metrics.map((metric: Json) => metric.MetricStat?.Metric.MetricName).filter(Boolean),
    ).toEqual(['ReadThrottleEvents', 'WriteThrottleEvents']);
    const systemErrors = byName.get(`${prefix}-table-system-errors`);
    const errorMetrics = systemErrors.Metrics.filter((metric: Json) => metric.MetricStat);
    expect(errorMetrics.length).toBeGreaterThan(0);
    expect(errorMetrics.length).toBeLessThanOrEqual(9);
    for (const metric of errorMetrics) expect(metric.MetricStat.Metric.MetricName).toBe('SystemErrors');
  });

  it('have a dashboard per stage', () => {
    const dashboards = resourcesOf(dev.template, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    expect((dashboards[0] as [string, Json])[1].Properties.DashboardName).toBe(stackName('dev'));
  });

  it('have their topic ARN in the outputs, for operators to subscribe', () => {
    const [topicId] = topicOf(dev.template);
    expect(dev.template.toJSON().Outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
  });
});

/** Every acknowledgement of the app: where it is, which rule (and finding), and why. */
function acknowledgementsOf(app: App): { construct: IConstruct; id: string; reason: string }[] {
  return app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({ construct, id: id.replace(/^annotation::/i, ''), reason })),
  );
}

describe('cdk-nag AWS Solutions and Serverless checks', () => {
  it.each([
    ['dev', dev],
    ['prod', prod],
  ])('report no unacknowledged finding on %s', (_stage, { app }) => {
    for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
      const report = pack.validateScope(app);
      expect(
        report.violations.map(
          (violation) =>
            `${violation.severity} ${violation.ruleName} at ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`,
        ),
      ).toEqual([]);
    }
  });

  it.each([
    ['dev', dev],
    ['prod', prod],
  ])(
    'on %s acknowledge on single resources, naming the finding where the rule reports findings',
    (_stage, { app }) => {
      const acknowledgements = acknowledgementsOf(app);
      expect(acknowledgements.length).toBeGreaterThan(0);
      for (const { construct, id, reason } of acknowledgements) {
        // On a construct above a resource, it would also cover whatever is added under it later.
        expect(CfnResource.isCfnResource(construct), `${id} at ${construct.node.path}`).toBe(true);
        expect(reason.length, `${id} at ${construct.node.path}`).toBeGreaterThan(30);
        if (rulesWithFindings.some((rule) => id.startsWith(rule))) {
          expect(id, construct.node.path).toMatch(/^[\w-]+\[.+\]$/);
        }
      }
    },
  );

  it('give public routes their own reason, never the API-key one', () => {
    const reasonOf = new Map<string, string>();
    for (const { construct, id, reason } of acknowledgementsOf(dev.app)) {
      if (id !== 'AwsSolutions-APIG4') continue;
      expect(construct).toBeInstanceOf(CfnMethod);
      const method = construct as CfnMethod;
      const path = pathOf(dev.template, dev.stack.resolve(method.resourceId));
      reasonOf.set(`${method.httpMethod} ${path}`, reason);
    }
    const apiKeyReason = /API keys, checked by the handler wrapper/;
    for (const [name, route] of endpointEntries) {
      const reason = reasonOf.get(`${route.method} ${route.path}`);
      if (route.caller !== 'public') {
        expect(reason, name).toMatch(apiKeyReason);
        continue;
      }
      expect(reason, name).not.toMatch(apiKeyReason);
      expect(reason, name).toMatch(
        route.path.startsWith('/provider_callbacks/')
          ? /provider's valid signature/
          : /payer opens in a browser/,
      );
    }
  });

  it('fail the synth on a wildcard grant nobody justified, even on a role with an acknowledged X-Ray wildcard', () => {
    const app = appFor({ stage: 'dev' });
    const stack = buildPaymentsApp(app);
    stack.functions
      .get('listStores')
      ?.addToRolePolicy(
        new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: ['*'] }),
      );
    expect(() => app.synth()).toThrow(/AwsSolutions-IAM5\[Resource::\*\]/);
  });

  it('run the Serverless pack on every synth', () => {
    const app = appFor({ stage: 'dev' });
    const stack = buildPaymentsApp(app);
    new Queue(stack, 'QueueWithoutDeadLetters', { enforceSSL: true });
    expect(() => app.synth()).toThrow(/Serverless-SQSRedrivePolicy/);
  });

  it.each([
    ['dev', dev, [`${stackName('dev')}/SandboxProviderSecret/Resource`]],
    // The providers' keys are issued and rotated in their own portals (provider-secrets.test.ts).
    [
      'prod',
      prod,
      [`${stackName('prod')}/WaveProviderSecret/Resource`, `${stackName('prod')}/MtnProviderSecret/Resource`],
    ],
  ])(
    'acknowledge secret rotation (SMG4) on %s on the sandbox and provider secrets alone',
    (_stage, { app }, expected) => {
      const acknowledgedAt = app.node.findAll().flatMap((construct) =>
        construct.node.metadata
          .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
          .filter(([rule]) => rule.includes('AwsSolutions-SMG4'))
          .map(([, reason]) => {
            expect(reason.length).toBeGreaterThan(20);
            return construct.node.path;
          }),
      );
      expect(acknowledgedAt).toEqual(expected);
    },
  );

  it('fail the synth on an unacknowledged finding', () => {
    const app = appFor({ stage: 'dev' });
    const stack = buildPaymentsApp(app);
    new Bucket(stack, 'UnloggedBucket');
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });
});

describe('the stage', () => {
  it('is required', () => {
    expect(() => buildPaymentsApp(appFor({}))).toThrow(/-c stage=NAME/);
  });

  it('must be in the registry, refused at synth with the known stages named', () => {
    expect(() => buildPaymentsApp(appFor({ stage: 'prdo' }))).toThrow(
      /^Unknown stage "prdo": add it to context.stages in cdk.json \(known: dev, staging, prod\)$/,
    );
  });

  it('is never the local host', () => {
    expect(() =>
      buildPaymentsApp(appFor({ stage: 'local', ...registryWith('local', registry.dev ?? {}) })),
    ).toThrow(/"local" is the local host/);
  });

  it('must be a plain name, since it becomes part of resource names', () => {
    expect(() =>
      buildPaymentsApp(appFor({ stage: 'Prod_1', ...registryWith('Prod_1', registry.dev ?? {}) })),
    ).toThrow(/^Stage "Prod_1" in cdk.json: the name must match/);
  });

  it.each([
    [{ kind: 'live' }, /kind must be "sandbox" or "production"/],
    [{ account: 123456789012 }, /account must be a 12-digit AWS account id/],
    [{ region: 'Ireland' }, /region must be an AWS region/],
    [{ alarmEmail: undefined }, /alarmEmail must be an e-mail address/],
    [
      { allowedOrigins: ['https://shop.example.com/cart'] },
      /allowedOrigins: "https:\/\/shop.example.com\/cart" is not an https:\/\/ origin/,
    ],
    [{ allowedOrigins: ['https://shop.example.com'] }, /allowedOrigins must be \[\] for now/],
    [{ providerRouting: { wave: 'other' } }, /providerRouting is reserved/],
    [{ feeSchedul: {} }, /unknown field feeSchedul/],
  ])('entry %j is refused, naming the field', (change, message) => {
    const stages = registryWith('dev', { ...registry.dev, ...change });
    expect(() => buildPaymentsApp(appFor({ stage: 'dev', ...stages }))).toThrow(message);
  });

  it('is refused up front when a resource name would exceed its limit, with the longest name that fits', () => {
    // The longest function name decides: `partner-payments-<stage>-<longest route>` within 64.
    const longestFunction = Math.max(...functionEntries.map(([name]) => name.length));
    const fits = 64 - 'partner-payments-'.length - 1 - longestFunction;
    const stage = `s${'a'.repeat(fits)}`;
    const entry = registry.dev ?? {};
    expect(() => buildPaymentsApp(appFor({ stage, ...registryWith(stage, entry) }))).toThrow(
      new RegExp(
        `^Stage name "${stage}" is too long: the function name partner-payments-${stage}-\\w+ would be 65 characters, over the limit of 64\\. Stage names may have at most ${fits} characters`,
      ),
    );
    const atLimit = stage.slice(1);
    expect(() => buildPaymentsApp(appFor({ stage: atLimit, ...registryWith(atLimit, entry) }))).not.toThrow();
  });

  it('names the stack, pinned to the registry account and region', () => {
    expect(prod.stack.stackName).toBe(stackName('prod'));
    expect(prod.stack.account).toBe(registry.prod?.account);
    expect(prod.stack.region).toBe(registry.prod?.region);
  });

  it("subscribes the registry's alarm e-mail to the alarm topic", () => {
    prod.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: registry.prod?.alarmEmail,
    });
  });
});

describe('SMS messaging', () => {
  const smsActionsOf = (template: Template, fn: Json) =>
    statementsOf(template, fn).filter((statement) =>
      asArray<string>(statement.Action).some((action) => action.startsWith('sms-voice:')),
    );

  it.each([
    ['dev', dev],
    ['prod', prod],
  ])(
    'feeds the sender and the delivery-event worker from their queues, each with a dead-letter queue, on %s',
    (stage, { template }) => {
      for (const [queue, worker] of [
        ['sms', 'sendSms'],
        ['smsEvents', 'recordSmsEvents'],
      ] as const) {
        const [queueId, source] = queueOf(template, sourceQueueName(stage, queue));
        const [deadLettersId] = queueOf(template, deadLetterQueueName(sourceQueueName(stage, queue)));
        expect(source.Properties.RedrivePolicy.deadLetterTargetArn).toEqual({
          'Fn::GetAtt': [deadLettersId, 'Arn'],
        });
        const [fnId] = functionOf(template, stage, worker);
        const mappings = resourcesOf(template, 'AWS::Lambda::EventSourceMapping').filter(
          ([, mapping]) => mapping.Properties.FunctionName.Ref === fnId,
        );
        expect(mappings.map(([, mapping]) => mapping.Properties.EventSourceArn)).toEqual([
          { 'Fn::GetAtt': [queueId, 'Arn'] },
        ]);
      }
    },
  );

  it('lets only the sender send SMS, and only on production, through the configuration set', () => {
    const [setId, configurationSet] = resourcesOf(prod.template, 'AWS::SMSVOICE::ConfigurationSet')[0] as [
      string,
      Json,
    ];
    for (const [name] of functionEntries) {
      const found = functionsNamed(prod.template, 'prod', name);
      if (found.length === 0) continue;
      const statements = smsActionsOf(prod.template, (found[0] as [string, Json])[1]);
      if (name !== 'sendSms') {
        expect(statements, name).toEqual([]);
        continue;
      }
      expect(statements).toHaveLength(1);
      expect(asArray(statements[0].Action)).toEqual(['sms-voice:SendTextMessage']);
      expect(asArray(statements[0].Resource)).toContainEqual({ 'Fn::GetAtt': [setId, 'Arn'] });
      expect((found[0] as [string, Json])[1].Properties.Environment.Variables.SMS_CONFIGURATION_SET).toBe(
        configurationSet.Properties.ConfigurationSetName,
      );
    }
    for (const [name] of functionEntries) {
      for (const [, fn] of functionsNamed(dev.template, 'dev', name))
        expect(smsActionsOf(dev.template, fn), `${name} on dev`).toEqual([]);
    }
    expect(resourcesOf(dev.template, 'AWS::SMSVOICE::ConfigurationSet')).toEqual([]);
  });

  it("lets the sandbox sender report its delivery events on dev, and nothing else of SMS's", () => {
    const [, sender] = functionOf(dev.template, 'dev', 'sendSms');
    const [eventsId] = queueOf(dev.template, sourceQueueName('dev', 'smsEvents'));
    expect(queuesSentToBy(dev.template, sender)).toEqual(new Set([eventsId]));
    const [, prodSender] = functionOf(prod.template, 'prod', 'sendSms');
    expect(queuesSentToBy(prod.template, prodSender)).toEqual(new Set());
  });

  it("sends production's delivery events through an encrypted topic, raw, to the events queue", () => {
    const [, configurationSet] = resourcesOf(prod.template, 'AWS::SMSVOICE::ConfigurationSet')[0] as [
      string,
      Json,
    ];
    const [destination] = configurationSet.Properties.EventDestinations;
    expect(destination).toMatchObject({ Enabled: true, MatchingEventTypes: ['TEXT_ALL'] });
    const topicId = destination.SnsDestination.TopicArn.Ref;
    const topic = resourceOf(prod.template, 'AWS::SNS::Topic', topicId);
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    const [eventsId] = queueOf(prod.template, sourceQueueName('prod', 'smsEvents'));
    const subscriptions = resourcesOf(prod.template, 'AWS::SNS::Subscription').filter(
      ([, subscription]) => subscription.Properties.TopicArn.Ref === topicId,
    );
    expect(subscriptions.map(([, subscription]) => subscription.Properties)).toEqual([
      expect.objectContaining({
        Protocol: 'sqs',
        Endpoint: { 'Fn::GetAtt': [eventsId, 'Arn'] },
        RawMessageDelivery: true,
      }),
    ]);
    const policies = resourcesOf(prod.template, 'AWS::SNS::TopicPolicy').filter(([, policy]) =>
      policy.Properties.Topics.some((ref: Json) => ref.Ref === topicId),
    );
    const statements = policies.flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual(
      expect.objectContaining({ Principal: { Service: 'sms-voice.amazonaws.com' }, Action: 'sns:Publish' }),
    );
  });

  it.each([
    ['dev', dev],
    ['prod', prod],
  ])('raises an alarm on %s when SMS fail, counted from both workers', (stage, { template }) => {
    const filters = resourcesOf(template, 'AWS::Logs::MetricFilter').filter(
      ([, filter]) => filter.Properties.MetricTransformations[0].MetricName === 'SmsFailed',
    );
    expect(filters).toHaveLength(2);
    for (const [, filter] of filters) {
      expect(filter.Properties.FilterPattern).toContain('sms message failed');
      expect(filter.Properties.MetricTransformations[0].MetricName).toBe('SmsFailed');
    }
    const alarm = resourcesOf(template, 'AWS::CloudWatch::Alarm').find(
      ([, candidate]) => candidate.Properties.AlarmName === `${stackName(stage)}-sms-failures`,
    );
    expect(alarm?.[1].Properties).toMatchObject({ MetricName: 'SmsFailed', Threshold: 10, Statistic: 'Sum' });
  });
});

describe('escrow hold expiry (EventBridge Scheduler)', () => {
  const groupName = `${stackName('dev')}-escrow-expiry`;
  const schedulerRole = (template: Template): [string, Json] => {
    const found = resourcesOf(template, 'AWS::IAM::Role').filter(([, role]) =>
      role.Properties.AssumeRolePolicyDocument.Statement.some(
        (statement: Json) => statement.Principal?.Service === 'scheduler.amazonaws.com',
      ),
    );
    expect(found).toHaveLength(1);
    return found[0] as [string, Json];
  };
  const schedulingFunctions = [
    ...endpointEntries,
    ...workerEntries,
    ...scheduleEntries,
    ...scheduleTargetEntries,
  ]
    .filter(([, entry]) => (entry.access as readonly AwsAccess[]).includes('schedule:escrowExpiry'))
    .map(([name]) => name);

  it('has a schedule group of its own on every stage', () => {
    for (const [stage, built] of [
      ['dev', dev],
      ['prod', prod],
    ] as const) {
      built.template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', {
        Name: `${stackName(stage)}-escrow-expiry`,
      });
    }
  });

  it('lets Scheduler, from this account only, invoke the expiry function and nothing else', () => {
    const [roleId, role] = schedulerRole(dev.template);
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        // The stage's own account, from its registry entry.
        Condition: { StringEquals: { 'aws:SourceAccount': registry.dev?.account } },
      }),
    ]);
    const statements = resourcesOf(dev.template, 'AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((r: Json) => r.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
    expect(statements).toHaveLength(1);
    expect(statements[0].Action).toBe('lambda:InvokeFunction');
    expect(JSON.stringify(statements[0].Resource)).toContain(`:function:${stackName('dev')}-expireEscrow`);
    expect(functionsNamed(dev.template, 'dev', 'expireEscrow')).toHaveLength(1);
  });

  it('lets exactly the functions that schedule create and delete schedules of the group, and pass that role', () => {
    // The provider callbacks and the collection sweep complete payments, which may hold in escrow;
    // a release (the API's, or the dashboard's page through the same operation) deletes the hold's
    // schedule. A refund keeps it: a failed payout holds the escrow again.
    expect(schedulingFunctions.sort()).toEqual([
      'receiveProviderCallback',
      'receiveProviderCallbackPut',
      'releaseEscrow',
      'releaseEscrowPage',
      'sweepPendingCollections',
    ]);
    const [roleId] = schedulerRole(dev.template);
    for (const [, fn] of resourcesOf(dev.template, 'AWS::Lambda::Function')) {
      const name = String(fn.Properties.FunctionName).replace(`${stackName('dev')}-`, '');
      const statements = statementsOf(dev.template, fn);
      const scheduling = statements.filter((s) =>
        asArray<string>(s.Action).some((a) => a.startsWith('scheduler:')),
      );
      const passing = statements.filter((s) => asArray<string>(s.Action).includes('iam:PassRole'));
      if (!schedulingFunctions.includes(name as never)) {
        expect(scheduling, name).toEqual([]);
        expect(passing, name).toEqual([]);
        continue;
      }
      expect(scheduling, name).toHaveLength(1);
      expect(asArray(scheduling[0].Action).sort()).toEqual([
        'scheduler:CreateSchedule',
        'scheduler:DeleteSchedule',
      ]);
      expect(JSON.stringify(scheduling[0].Resource)).toContain(`:schedule/${groupName}/*`);
      expect(passing.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [roleId, 'Arn'] }]);
      const variables = fn.Properties.Environment.Variables;
      expect(variables.ESCROW_SCHEDULE_GROUP, name).toBe(groupName);
      expect(variables.ESCROW_SCHEDULER_ROLE_ARN, name).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
      expect(JSON.stringify(variables.ESCROW_EXPIRY_FUNCTION_ARN)).toContain(
        `${stackName('dev')}-expireEscrow`,
      );
    }
  });

  it('raises an alarm when Scheduler fails to invoke the expiry or drops an invocation', () => {
    const [, alarm] = resourcesOf(dev.template, 'AWS::CloudWatch::Alarm').find(
      ([, a]) => a.Properties.AlarmName === `${groupName}-failed-invocations`,
    ) as [string, Json];
    expect(alarm.Properties).toMatchObject({
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      TreatMissingData: 'notBreaching',
    });
    const metrics = alarm.Properties.Metrics.filter((m: Json) => m.MetricStat).map(
      (m: Json) => m.MetricStat.Metric,
    );
    expect(metrics.map((m: Json) => m.MetricName).sort()).toEqual([
      'InvocationDroppedCount',
      'TargetErrorCount',
    ]);
    for (const metric of metrics) {
      expect(metric.Namespace).toBe('AWS/Scheduler');
      expect(metric.Dimensions).toEqual([{ Name: 'ScheduleGroup', Value: groupName }]);
    }
    expect(alarm.Properties.EvaluationPeriods).toBe(1);
  });

  it('sweeps held escrows whose schedule was lost every five minutes', () => {
    expect(schedules.sweepEscrows.expression).toBe('rate(5 minutes)');
    dev.template.hasResourceProperties('AWS::Events::Rule', {
      Name: `${stackName('dev')}-sweepEscrows`,
      ScheduleExpression: 'rate(5 minutes)',
    });
  });
});

describe('the stage kind, not its name, decides production', () => {
  const mislabelled = build('production', registryWith('production', { ...registry.dev }));
  // In an account of its own: a production stage may share its account with no other stage.
  const liveDev = build(
    'dev',
    registryWith('dev', { ...registry.dev, kind: 'production', account: '333333333333' }),
  );
  const sandboxRoutes = endpointEntries.filter(([, route]) => route.sandboxOnly === true);

  it('a sandbox named "production" is a destroyable sandbox, with its test routes', () => {
    expect(mislabelled.stack.terminationProtection).toBe(false);
    for (const [name] of sandboxRoutes) functionOf(mislabelled.template, 'production', name);
  });

  it.each([
    ['prod', prod],
    ['dev', liveDev],
  ])(
    'production stage %s has termination protection, retention, deletion protection, no sandbox routes',
    (stage, built) => {
      expect(built.stack.terminationProtection).toBe(true);
      const [, table] = resourcesOf(built.template, 'AWS::DynamoDB::Table')[0] as [string, Json];
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
      for (const [, group] of resourcesOf(built.template, 'AWS::Logs::LogGroup')) {
        expect(group.DeletionPolicy).toBe('Retain');
      }
      expect(sandboxRoutes.length).toBeGreaterThan(0);
      for (const [name] of sandboxRoutes) expect(functionsNamed(built.template, stage, name)).toEqual([]);
      const paths = resourcesOf(built.template, 'AWS::ApiGateway::Resource').map(
        ([, resource]) => resource.Properties.PathPart,
      );
      expect(paths).not.toContain('sandbox');
    },
  );
});
describe('the API reference on a stage', () => {
  it('serves /openapi.json, /docs and its files without a key or any AWS access', () => {
    for (const name of ['openApiDocument', 'referencePage', 'referencePageAsset'] as const) {
      expect(endpoints[name].caller).toBe('public');
      expect(endpoints[name].access).toEqual([]);
      expect(dev.stack.functions.get(name)).toBeDefined();
    }
    dev.template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'openapi.json' });
    dev.template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'docs' });
  });

  it('compresses answers of 1 KB and more, the viewer among them', () => {
    dev.template.hasResourceProperties('AWS::ApiGateway::RestApi', { MinimumCompressionSize: 1024 });
  });
});
