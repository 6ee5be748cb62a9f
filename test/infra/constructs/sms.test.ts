/**
 * SMS (infra/constructs/sms.ts and the SMS workers): the sender and the delivery-event worker fed by
 * their queues, production's configuration set and its events topic, and the alarm on failed SMS.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { deadLetterQueueName, stackName } from '#infra/naming.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import {
  asArray,
  functionOf,
  functionsNamed,
  type Json,
  queueOf,
  queuesSentToBy,
  resourceOf,
  resourcesOf,
  sourceQueueName,
  statementsOf,
} from '#test/support/stage-template-queries.ts';

const { dev, prod, bothStages } = await synthesizedStages();

describe('SMS messaging', () => {
  const smsActionsOf = (template: Template, fn: Json) =>
    statementsOf(template, fn).filter((statement) =>
      asArray<string>(statement.Action).some((action) => action.startsWith('sms-voice:')),
    );

  it.each(bothStages)(
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

  it.each(bothStages)(
    'raises an alarm on %s when SMS fail, counted from both workers',
    (stage, { template }) => {
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
      expect(alarm?.[1].Properties).toMatchObject({
        MetricName: 'SmsFailed',
        Threshold: 10,
        Statistic: 'Sum',
      });
    },
  );
});
