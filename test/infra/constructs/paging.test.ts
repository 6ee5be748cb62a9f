/**
 * What pages an operator: each function's alarm (infra/constructs/function-alarms.ts), every alarm
 * rolled up into the stage's one paging alarm (infra/constructs/paging.ts), and the topic it notifies
 * (infra/constructs/alarm-topic.ts).
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { alarmTopicName, stackName } from '#infra/naming.ts';
import { registry } from '#test/support/stage-synth.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import { type Json, onlyResourceOf, resourceOf, resourcesOf } from '#test/support/stage-template-queries.ts';

const { dev, bothStages } = await synthesizedStages();

describe('the alarms', () => {
  const alarmsOf = (template: Template) => resourcesOf(template, 'AWS::CloudWatch::Alarm');
  // Production has a second topic, for SMS delivery events; the alarm topic is named for alarms.
  const topicOf = (template: Template) =>
    onlyResourceOf(template, 'AWS::SNS::Topic', (topic) =>
      String(topic.Properties.TopicName).endsWith('-alarms'),
    );

  it.each(bothStages)(
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

  it.each(bothStages)(
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

  it('have their topic ARN in the outputs, for operators to subscribe', () => {
    const [topicId] = topicOf(dev.template);
    expect(dev.template.toJSON().Outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
  });
});
