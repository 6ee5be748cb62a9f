/**
 * One alarm pages per stage: a composite of every alarm of the stack, notifying the alarm topic
 * going into ALARM and back to OK. The alarms of each nested stack (a function group's: its
 * functions' failure rates, failed sweeps, stream lag) first roll up into that group's composite,
 * which keeps the stage's rule short of CloudWatch's 10,240 characters and says on the page which
 * group is failing. Nothing else notifies: the individual alarms, and which of them is in ALARM,
 * are on the stage's dashboard. Built last, so that it finds every alarm made before.
 */
import { type Stack, Stack as StackOf } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmRule,
  AlarmState,
  AlarmStatusWidget,
  CompositeAlarm,
  type Dashboard,
  type IAlarm,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { stackName } from '#infra/naming.ts';

/** CloudWatch's limit on a composite alarm's rule. */
const maxAlarmRuleLength = 10_240;

/** `ALARM("arn:aws:cloudwatch:<region>:<account>:alarm:<name>") OR `, at its longest. */
const ruleCharactersPerAlarm = (alarmName: string) =>
  'ALARM("arn:aws-us-gov:cloudwatch:ap-southeast-4:123456789012:alarm:") OR '.length + alarmName.length;

/** The stage's paging alarm: `<stack>-page`. */
export const pagingAlarmName = (stage: string) => `${stackName(stage)}-page`;

export class StagePaging {
  readonly pagingAlarm: CompositeAlarm;

  constructor(stack: Stack, stage: string, topic: Topic, dashboard: Dashboard) {
    const byStack = new Map<Stack, Alarm[]>();
    for (const construct of stack.node.findAll()) {
      if (!(construct instanceof Alarm)) continue;
      const owner = StackOf.of(construct);
      byStack.set(owner, [...(byStack.get(owner) ?? []), construct]);
    }
    const topLevel: IAlarm[] = [...(byStack.get(stack) ?? [])];
    for (const [owner, alarms] of byStack) {
      if (owner === stack) continue;
      const name = `${stackName(stage)}-${owner.node.id}`;
      topLevel.push(
        new CompositeAlarm(owner, `${owner.node.id}Alarm`, {
          compositeAlarmName: name,
          alarmDescription: `An alarm of ${owner.node.id} is raised: the dashboard's alarm panel and this composite's history say which.`,
          alarmRule: ruleOf(name, alarms),
        }),
      );
    }
    this.pagingAlarm = new CompositeAlarm(stack, 'PagingAlarm', {
      compositeAlarmName: pagingAlarmName(stage),
      alarmDescription: `An alarm of ${stackName(stage)} is raised. Its description says what to look at; the dashboard ${stackName(stage)} shows every alarm's state. The runbook: docs/operations/monitoring.md.`,
      alarmRule: ruleOf(pagingAlarmName(stage), topLevel),
    });
    const notify = new SnsAction(topic);
    this.pagingAlarm.addAlarmAction(notify);
    this.pagingAlarm.addOkAction(notify);
    dashboard.addWidgets(
      new AlarmStatusWidget({
        title: 'Alarms (each function group as one; open it for its functions)',
        alarms: [this.pagingAlarm, ...topLevel],
        width: 24,
      }),
    );
  }
}

/** Any of `alarms`, refused at synth when the rule would be longer than CloudWatch takes. */
function ruleOf(name: string, alarms: readonly IAlarm[]) {
  const length = alarms.reduce((total, alarm) => total + ruleCharactersPerAlarm(alarmNameOf(alarm)), 0);
  if (length > maxAlarmRuleLength) {
    throw new Error(
      `The composite alarm ${name} would have a rule of about ${length} characters, over CloudWatch's ${maxAlarmRuleLength}: split its alarms into more groups`,
    );
  }
  return AlarmRule.anyOf(...alarms.map((alarm) => AlarmRule.fromAlarm(alarm, AlarmState.ALARM)));
}

/** The name an alarm was given (tokens only for alarms named by CloudFormation, which none is). */
function alarmNameOf(alarm: IAlarm): string {
  const cfn = (alarm as Alarm).node.defaultChild as { alarmName?: unknown; compositeAlarmName?: unknown };
  const name = cfn?.alarmName ?? cfn?.compositeAlarmName;
  return typeof name === 'string' ? name : '';
}
