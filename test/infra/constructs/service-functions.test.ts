/**
 * The stage's functions (infra/constructs/service-functions.ts, each an infra/service-function.ts):
 * one per route, worker, schedule and stream consumer, with its runtime, its log group, its grants,
 * and what feeds it (its queue, the table's stream, its rule); sandbox-only ones on sandboxes alone.
 */
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { describe, expect, it } from 'vitest';
import { deadLetterQueueName, stackName } from '#infra/naming.ts';
import { apiFunctionTimeout, type ServiceFunction } from '#infra/service-function.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import type { AwsAccess } from '#shared/catalogue/access.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';
import { scheduleEntries, schedules } from '#shared/catalogue/schedules.ts';
import { streamConsumerEntries, streamConsumers } from '#shared/catalogue/stream-consumers.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';
import { appFor, logicalIdOf, standAloneFunction } from '#test/support/stage-synth.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import { stageTemplateOf } from '#test/support/stage-template.ts';
import {
  arrivalAlarmsOf,
  asArray,
  functionOf,
  functionsNamed,
  type Json,
  queueEntries,
  queueOf,
  queuesNamed,
  resourceOf,
  resourcesOf,
  sourceQueueName,
  statementsOf,
  tableActionsOf,
} from '#test/support/stage-template-queries.ts';

const { dev, prod } = await synthesizedStages();

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

/** The DynamoDB actions an access list declares (`table:GetItem` → `dynamodb:GetItem`). */
const declaredTableActions = (access: readonly AwsAccess[]) =>
  new Set(
    access.filter((granted) => granted.startsWith('table:')).map((granted) => `dynamodb:${granted.slice(6)}`),
  );

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

  it('passes only the declared inserts and status moves (no session, code or ledger item), to the webhook, expiry and SMS queues', () => {
    const { dispatchTableChanges } = streamConsumers;
    const [inserts, moves] = dispatchTableChanges.filters as [Json, Json];
    expect(inserts.eventName).toEqual(['INSERT']);
    expect(moves.eventName).toEqual(['MODIFY']);
    // A new payment request (its expiry check) and a new message (its SMS) are recorded pending.
    expect(inserts.dynamodb.NewImage.entity.S).toEqual(
      expect.arrayContaining(['message', 'payment_request']),
    );
    expect(inserts.dynamodb.NewImage.status.S).toContain('pending');
    // A payment request leaving pending is its TRANSACTION_COMPLETED.
    expect(moves.dynamodb.OldImage.entity.S).toContain('payment_request');
    expect(moves.dynamodb.OldImage.status.S).toContain('pending');
    expect(moves.dynamodb.NewImage.status.S).toEqual(expect.arrayContaining(['success', 'error', 'expired']));
    // A move back to pending, or an item that is not an event's, is never passed.
    expect(moves.dynamodb.NewImage.status.S).not.toContain('pending');
    for (const entity of ['session', 'sign_in_code', 'ledger_entry', 'wallet', 'webhook_delivery']) {
      expect(inserts.dynamodb.NewImage.entity.S, entity).not.toContain(entity);
      expect(moves.dynamodb.OldImage.entity.S, entity).not.toContain(entity);
    }
    expect(dispatchTableChanges.access).toContain('queue:send:webhooks');
    expect(dispatchTableChanges.access).toContain('queue:send:sms');
    expect(dispatchTableChanges.access).toContain('queue:send:paymentExpiry');
  });
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
