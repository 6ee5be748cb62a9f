/**
 * Escrow holds ending on EventBridge Scheduler's one-time schedules (infra/constructs/escrow-expiry.ts):
 * the stage's schedule group, the role Scheduler invokes the expiry with, the functions that may
 * schedule, the alarm on failed invocations, and the sweep that ends a hold whose schedule was lost.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { stackName } from '#infra/naming.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import type { AwsAccess } from '#shared/catalogue/access.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { scheduleEntries, schedules, scheduleTargetEntries } from '#shared/catalogue/schedules.ts';
import { registry } from '#test/support/stage-synth.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import {
  asArray,
  functionsNamed,
  type Json,
  onlyResourceOf,
  resourcesOf,
  roleStatementsOf,
  statementsOf,
} from '#test/support/stage-template-queries.ts';

const { dev, bothStages } = await synthesizedStages();

describe('escrow hold expiry (EventBridge Scheduler)', () => {
  const groupName = `${stackName('dev')}-escrow-expiry`;
  const schedulerRole = (template: Template): [string, Json] =>
    onlyResourceOf(template, 'AWS::IAM::Role', (role) =>
      role.Properties.AssumeRolePolicyDocument.Statement.some(
        (statement: Json) => statement.Principal?.Service === 'scheduler.amazonaws.com',
      ),
    );
  const schedulingFunctions = [
    ...endpointEntries,
    ...workerEntries,
    ...scheduleEntries,
    ...scheduleTargetEntries,
  ]
    .filter(([, entry]) => (entry.access as readonly AwsAccess[]).includes('schedule:escrowExpiry'))
    .map(([name]) => name);

  it('has a schedule group of its own on every stage', () => {
    for (const [stage, built] of bothStages) {
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
    const statements = roleStatementsOf(dev.template, roleId);
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
      'receivePawapayCallback',
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
