/**
 * Soundbox terminals (DESIGN §8): their thing type, the policy every device certificate gets,
 * and the IoT rules that hand devices' heartbeats and connection events to the presence
 * function. The policy is written with the thing-name policy variable, so one policy serves every
 * device and each device reaches only its own topics: it connects only as its own thing (with a
 * certificate attached to it, of the stage's type), subscribes and receives only under
 * `<stage>/soundbox/<its name>/`, and publishes only its status. Topics and rules carry the stage
 * (shared/domain/soundbox.ts), since IoT Core's topics are shared by every stage of the account.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnPolicy as CfnIotPolicy, CfnThingType, CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { FilterPattern, LogGroup, MetricFilter, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Stage } from '#infra/constructs/stage.ts';
import { devicePolicyName, deviceThingTypeName, pascalCase, serviceName, stackName } from '#infra/naming.ts';
import type { ServiceFunction } from '#infra/service-function.ts';
import { type DeviceRuleName, deviceRuleEntries } from '#shared/catalogue/device-rules.ts';
import { soundboxTopicPrefix, soundboxTopics } from '#shared/domain/soundbox.ts';

export class SoundboxDevices {
  /** `ruleFunctions`: the function each device rule of the function catalogue invokes. */
  constructor(stack: Stack, stage: Stage, ruleFunctions: ReadonlyMap<DeviceRuleName, ServiceFunction>) {
    const thingTypeName = deviceThingTypeName(stage.name, stage.production);
    const thingType = new CfnThingType(stack, 'DeviceThingType', {
      thingTypeName,
      thingTypeProperties: {
        thingTypeDescription: 'Soundbox QR terminal: shows payment QR codes and announces payments',
        searchableAttributes: ['storeId', 'businessId'],
      },
    });
    // A thing type can be deleted only five minutes after it is deprecated, and never while things
    // use it: production's outlives its stack rather than block a deletion.
    thingType.applyRemovalPolicy(stage.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);

    // An IoT policy variable, resolved by IoT Core per connection: not a template placeholder.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: IoT policy variable syntax
    const thingName = '${iot:Connection.Thing.ThingName}';
    const iotArn = (resource: string, resourceName: string) =>
      stack.formatArn({ service: 'iot', resource, resourceName });
    const topics = soundboxTopics(stage.name, thingName);
    new CfnIotPolicy(stack, 'DevicePolicy', {
      policyName: devicePolicyName(stage.name),
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: 'iot:Connect',
            Resource: iotArn('client', thingName),
            Condition: {
              Bool: { 'iot:Connection.Thing.IsAttached': 'true' },
              StringEquals: { 'iot:Connection.Thing.ThingTypeName': thingTypeName },
            },
          },
          {
            Effect: 'Allow',
            Action: 'iot:Subscribe',
            Resource: iotArn('topicfilter', `${soundboxTopicPrefix(stage.name)}${thingName}/*`),
          },
          {
            Effect: 'Allow',
            Action: 'iot:Receive',
            Resource: iotArn('topic', `${soundboxTopicPrefix(stage.name)}${thingName}/*`),
          },
          {
            Effect: 'Allow',
            Action: 'iot:Publish',
            Resource: iotArn('topic', topics.status),
          },
        ],
      },
    });

    for (const [name, rule] of deviceRuleEntries) {
      const fn = ruleFunctions.get(name);
      if (!fn) throw new Error(`Device rule ${name} has no function`);
      const errorAction = ruleErrorActionOf(Stack.of(fn), stage);
      rule.sql(stage.name).forEach((sql, index) => {
        const topicRule = new CfnTopicRule(Stack.of(fn), `${pascalCase(name)}Rule${index + 1}`, {
          // Rule names allow letters, digits and underscores only.
          ruleName: `${stackName(stage.name)}_${name}_${index + 1}`.replace(/[^a-zA-Z0-9_]/g, '_'),
          topicRulePayload: {
            sql,
            awsIotSqlVersion: '2016-03-23',
            ruleDisabled: false,
            actions: [{ lambda: { functionArn: fn.functionArn } }],
            // A rule whose action fails (the function throttled, missing, refusing) says so here.
            errorAction,
          },
        });
        fn.addPermission(`${pascalCase(name)}Rule${index + 1}Invoke`, {
          principal: new ServicePrincipal('iot.amazonaws.com'),
          sourceArn: topicRule.attrArn,
          sourceAccount: stack.account,
        });
      });
    }
  }
}

/**
 * Where IoT rules of the stage report an action that failed, made once in the stack of the rules'
 * functions: a log group (the failed message and the error), the role IoT writes to it with, and
 * an alarm as soon as a failure is written.
 */
function ruleErrorActionOf(stack: Stack, stage: Stage): CfnTopicRule.ActionProperty {
  const existing = stack.node.tryFindChild('DeviceRuleErrors') as LogGroup | undefined;
  const logGroup =
    existing ??
    new LogGroup(stack, 'DeviceRuleErrors', {
      logGroupName: `/aws/iot/${stackName(stage.name)}-rule-errors`,
      retention: stage.production ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
      removalPolicy: stage.removalPolicy,
    });
  const role =
    (stack.node.tryFindChild('DeviceRuleErrorsRole') as Role | undefined) ??
    new Role(stack, 'DeviceRuleErrorsRole', { assumedBy: new ServicePrincipal('iot.amazonaws.com') });
  if (!existing) {
    // The three actions IoT's CloudWatch Logs action needs, on this group only.
    logGroup.grantWrite(role);
    logGroup.grant(role, 'logs:DescribeLogStreams');
    const metric = { namespace: `${serviceName}/${stage.name}`, name: 'DeviceRuleErrors' };
    new MetricFilter(stack, 'DeviceRuleErrorsFilter', {
      logGroup,
      filterPattern: FilterPattern.allEvents(),
      metricNamespace: metric.namespace,
      metricName: metric.name,
      metricValue: '1',
    });
    new Alarm(stack, 'DeviceRuleErrorsAlarm', {
      alarmName: `${stackName(stage.name)}-device-rule-errors`,
      alarmDescription: `An IoT rule of the devices could not invoke its function: devices' presence goes stale. The log group ${logGroup.logGroupName} has the message and the error.`,
      metric: new Metric({
        namespace: metric.namespace,
        metricName: metric.name,
        period: Duration.minutes(5),
        statistic: Stats.SUM,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
  return { cloudwatchLogs: { logGroupName: logGroup.logGroupName, roleArn: role.roleArn } };
}
