/**
 * The stage-wide alarms and the dashboard (infra/constructs/observability.ts): the API's error rate
 * and slow tail, each queue's backlog, the table's throttles and errors, refused sign-in codes.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import {
  apiLatencyAlarm,
  oldestMessageAlarmSeconds,
  serverErrorRateAlarm,
} from '#infra/constructs/observability.ts';
import { serviceName, stackName } from '#infra/naming.ts';
import { queues } from '#shared/catalogue/queues.ts';
import { synthesizedStage } from '#test/support/stage-synthesized.ts';
import { type Json, resourcesOf } from '#test/support/stage-template-queries.ts';

const dev = await synthesizedStage('dev');

describe('the alarms', () => {
  const alarmsOf = (template: Template) => resourcesOf(template, 'AWS::CloudWatch::Alarm');

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
});
