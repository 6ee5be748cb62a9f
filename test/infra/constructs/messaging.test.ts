/**
 * The stage's queues (infra/constructs/messaging.ts): encrypted, closed to plain HTTP, each with its
 * dead-letter queue that alarms; the webhook queue and its sender; and the `queue:send` access that
 * lets a function send to exactly the queues it names (infra/service-function.ts).
 */
import { Stack } from 'aws-cdk-lib';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { type CfnQueue, Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { deadLetterQueueName } from '#infra/naming.ts';
import type { AwsAccess } from '#shared/catalogue/access.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';
import { workers } from '#shared/catalogue/queue-workers.ts';
import { type QueueName, queueUrlVariable } from '#shared/catalogue/queues.ts';
import { streamConsumers } from '#shared/catalogue/stream-consumers.ts';
import { appFor, logicalIdOf, standAloneFunction } from '#test/support/stage-synth.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import { stageTemplateOf } from '#test/support/stage-template.ts';
import {
  arrivalAlarmsOf,
  asArray,
  expectRefusesPlainHttp,
  functionOf,
  functionsNamed,
  type Json,
  queueEntries,
  queueOf,
  queuesNamed,
  queuesSentToBy,
  resourceOf,
  resourcesOf,
  sourceQueueName,
  statementsOf,
} from '#test/support/stage-template-queries.ts';

const { dev, bothStages } = await synthesizedStages();

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

  it.each([
    ['dispatchTableChanges', ['webhooks', 'sms', 'paymentExpiry']],
    ['resendWebhookDelivery', ['webhooks']],
    ['resendTransactionDeliveryPage', ['webhooks']],
  ] as const)('lets %s send to the webhook queue (and only its others), on prod too', (name, queues) => {
    for (const [stage, { template }] of bothStages) {
      const [, fn] = functionOf(template, stage, name);
      const sent = queuesSentToBy(template, fn);
      const named = queues.map((queue) => queueOf(template, sourceQueueName(stage, queue))[0]);
      // The stream's consumer also sends a record it cannot dispatch to its failure queue.
      const failures = [...sent].filter((id) => !named.includes(id));
      expect(failures.length, `${name} on ${stage}`).toBeLessThanOrEqual(
        name === 'dispatchTableChanges' ? 1 : 0,
      );
      expect(sent, `${name} on ${stage}`).toEqual(new Set([...named, ...failures]));
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

  it.each(bothStages)(
    "lets each function of %s send to the stage's queues its access names, and no other",
    (stage, built) => {
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
    },
  );

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
