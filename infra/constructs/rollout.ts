/**
 * Safe rollout of the money paths: the functions that create payments, take the providers'
 * callbacks (which complete payments and payouts), and move money out (transfers, refunds). Each
 * is published as a version behind a `live` alias that API Gateway invokes, and a deploy that
 * changes it shifts traffic through CodeDeploy: on production 10% to the new version for five
 * minutes, then the rest; on sandbox stages all at once. The alias's failure-rate alarm in ALARM
 * during the shift stops the deployment and sends every call back to the previous version
 * (docs/operations/rollout.md). Every other function is deployed at once, as before: what it
 * does is read, or retried by its queue.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import {
  type ILambdaDeploymentConfig,
  LambdaApplication,
  LambdaDeploymentConfig,
  LambdaDeploymentGroup,
} from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alias, type IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Stage } from '#infra/constructs/stage.ts';
import { acknowledge } from '#infra/nag.ts';
import { stackName } from '#infra/naming.ts';
import type { ServiceFunction } from '#infra/service-function.ts';
import type { EndpointName } from '#shared/api/all-endpoints.ts';

/** The endpoints on the money paths: their functions are rolled out by canary. */
export const moneyPathEndpoints = [
  // Payment creation: by a partner, and by a payer on the payment and link pages.
  'createPaymentRequest',
  'submitPaymentPage',
  'submitLinkPage',
  // Provider callbacks, which complete collections, payouts and refunds.
  'receiveProviderCallback',
  'receiveProviderCallbackPut',
  'receivePayoutCallback',
  'receivePayoutCallbackPut',
  'receivePawapayCallback',
  // Money out.
  'createTransfer',
  'createRefund',
] as const satisfies readonly EndpointName[];

export type MoneyPathEndpoint = (typeof moneyPathEndpoints)[number];

export const isMoneyPath = (name: string): name is MoneyPathEndpoint =>
  (moneyPathEndpoints as readonly string[]).includes(name);

/** The alias API Gateway invokes. */
export const liveAliasName = 'live';

/**
 * What rolls a deployment back: over 2% of the alias's calls failing or throttled within a
 * minute, from 2 failures (the canary's 10% of a quiet minute is a handful of calls; one failure
 * among them may be the caller's network, two are not).
 */
export const rollbackAlarm = { percent: 2, minimumFailures: 2, period: Duration.minutes(1) } as const;

/** Production shifts a tenth of the traffic for five minutes first; sandboxes deploy at once. */
export const deploymentConfigOf = (stage: Stage): ILambdaDeploymentConfig =>
  stage.production ? LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES : LambdaDeploymentConfig.ALL_AT_ONCE;

export class MoneyPathRollout {
  private application?: LambdaApplication;
  private role?: Role;

  constructor(
    private readonly stack: Stack,
    private readonly stage: Stage,
  ) {}

  /** What API Gateway invokes for `name`: the function's `live` alias on a money path, else the function. */
  invokedFor(fn: ServiceFunction, name: string): IFunction {
    if (!isMoneyPath(name)) return fn;
    const scope = Stack.of(fn);
    const alias = new Alias(scope, `${fn.node.id}LiveAlias`, {
      aliasName: liveAliasName,
      version: fn.currentVersion,
    });
    const functionName = `${stackName(this.stage.name)}-${name}`;
    const failures = new Alarm(scope, `${fn.node.id}LiveFailuresAlarm`, {
      alarmName: `${functionName}-live-failures`,
      alarmDescription: `Over ${rollbackAlarm.percent}% of the calls to ${functionName}:${liveAliasName} failed or were throttled within a minute. During a deployment, CodeDeploy rolls the alias back to the previous version; otherwise look at the function's log group.`,
      metric: new MathExpression({
        expression: `IF(errors + throttles >= ${rollbackAlarm.minimumFailures}, 100 * (errors + throttles) / (invocations + throttles), 0)`,
        usingMetrics: {
          errors: alias.metricErrors({ period: rollbackAlarm.period, statistic: Stats.SUM }),
          throttles: alias.metricThrottles({ period: rollbackAlarm.period, statistic: Stats.SUM }),
          invocations: alias.metricInvocations({ period: rollbackAlarm.period, statistic: Stats.SUM }),
        },
        label: 'Failed or throttled (% of calls to the live alias)',
        period: rollbackAlarm.period,
      }),
      threshold: rollbackAlarm.percent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    new LambdaDeploymentGroup(scope, `${fn.node.id}Deployment`, {
      application: this.applicationOf(),
      deploymentGroupName: functionName,
      alias,
      deploymentConfig: deploymentConfigOf(this.stage),
      alarms: [failures],
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
      role: this.roleOf(),
    });
    return alias;
  }

  /** One CodeDeploy application per stage, in the stage's stack. */
  private applicationOf(): LambdaApplication {
    this.application ??= new LambdaApplication(this.stack, 'MoneyPathDeployments', {
      applicationName: `${stackName(this.stage.name)}-money-paths`,
    });
    return this.application;
  }

  /** One role for every deployment group of the stage, rather than one each. */
  private roleOf(): Role {
    if (this.role) return this.role;
    this.role = new Role(this.stack, 'MoneyPathDeploymentRole', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      description: `Lets CodeDeploy shift the money paths' aliases of ${stackName(this.stage.name)}`,
      managedPolicies: [
        ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited'),
      ],
    });
    acknowledge(
      this.role,
      'AwsSolutions-IAM4',
      "AWS's own policy for CodeDeploy on Lambda: it reads the alarms named in the deployment group and updates aliases; the Limited variant publishes no SNS and invokes no function.",
      'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited',
    );
    return this.role;
  }
}
