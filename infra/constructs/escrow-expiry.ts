/**
 * Escrow holds end by one-time EventBridge Scheduler schedules (`at(holdUntil)`), created at run
 * time in the stage's own group and invoking the expiry function with a role that may invoke that
 * function and nothing else. Scheduler retries a failed invocation; one that still fails raises the
 * alarm (the safety sweep ends the hold later).
 */
import { ArnFormat, Duration, type Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { functionNameFor, stackName } from '#infra/naming.ts';
import type { EscrowExpiryResources } from '#infra/service-function.ts';

export class EscrowExpirySchedules implements EscrowExpiryResources {
  readonly groupName: string;
  readonly functionArn: string;
  readonly role: Role;

  constructor(stack: Stack, stage: string) {
    this.groupName = `${stackName(stage)}-escrow-expiry`;
    new CfnScheduleGroup(stack, 'EscrowExpiryScheduleGroup', { name: this.groupName });
    this.functionArn = stack.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: functionNameFor(stage, 'expireEscrow'),
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.role = new Role(stack, 'EscrowExpirySchedulerRole', {
      description: 'Assumed by EventBridge Scheduler to end escrow holds: invokes the expiry function only',
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    });
    this.role.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.functionArn] }),
    );
    const failures = (metricName: string) =>
      new Metric({
        namespace: 'AWS/Scheduler',
        metricName,
        dimensionsMap: { ScheduleGroup: this.groupName },
        period: Duration.minutes(5),
        statistic: Stats.SUM,
      });
    new Alarm(stack, 'EscrowExpiryFailedInvocationsAlarm', {
      alarmName: `${this.groupName}-failed-invocations`,
      alarmDescription:
        'EventBridge Scheduler could not end escrow holds: the expiry function failed or was not invoked (role, throttling). The sweep retries them; look at the expireEscrow logs.',
      metric: new MathExpression({
        expression: 'errors + dropped',
        usingMetrics: { errors: failures('TargetErrorCount'), dropped: failures('InvocationDroppedCount') },
        period: Duration.minutes(5),
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
