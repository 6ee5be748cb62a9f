/**
 * What tells an operator the stage is unwell: the stage-wide alarms (the API's error rate and slow
 * tail, each queue's backlog, Lambda's throttles, the table's throttles and errors, failed SMS
 * counted from the workers' logs) and one dashboard. The alarms of one resource (a dead-letter
 * queue, a function's errors, the escrow schedules) sit beside that resource; every alarm notifies
 * the stage's alarm topic (alarm-topic.ts).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { ServiceFunctions } from '#infra/constructs/service-functions.ts';
import { pascalCase, serviceName, stackName } from '#infra/naming.ts';
import type { QueueName } from '#shared/catalogue/queues.ts';
import { operatorHealthRule } from '#shared/domain/operator-health.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';

/** Where shared/metrics.ts writes the service's own metrics. */
const businessMetricsNamespace = 'PartnerPayments';

/**
 * The API's 5xx alarm: the share of requests answered 5xx over one period, computed with metric
 * math from the Sum of 5XXError and the Sum of Count. A rate rather than a count so the alarm means
 * the same at night and at peak; no minimum volume, because on a payments API a single failed
 * request among a handful is worth a look.
 */
export const serverErrorRateAlarm = { percent: 1, period: Duration.minutes(5) } as const;

/**
 * Failed SMS over one period that raise the alarm. A wrong number now and then is the sender's
 * business; ten in five minutes is more than typos.
 */
export const smsFailureAlarm = { threshold: 10, period: Duration.minutes(5) } as const;

/**
 * The API's p99 above 2 s for 15 minutes: requests take tens of milliseconds and a cold start about
 * a second, so a sustained p99 over 2 s means something is slow, not that a container started.
 */
export const apiLatencyAlarm = { thresholdMs: 2000, period: Duration.minutes(5), periods: 3 } as const;

/**
 * A queued message older than an hour: a webhook's retries end about 31 minutes after its first
 * attempt (shared/domain/webhook-retry.ts) and a sandbox callback is sent within minutes, so an
 * hour-old message means its worker is failing, throttled or not keeping up.
 */
export const oldestMessageAlarmSeconds = 60 * 60;

/**
 * Any dashboard sign-in code refused by the stage's hourly cap: the cap is set well above what
 * people sign in with, so reaching it is most likely SMS pumping (codes asked for numbers that
 * earn someone a share of each text), and the dashboard's new sign-ins wait until the hour ends.
 */
export const signInCapAlarm = { period: Duration.minutes(5) } as const;

/**
 * The account's concurrent executions above this share of what the stage counts on, for five
 * minutes: before the API's functions are throttled, not after.
 */
export const accountConcurrencyAlarm = { percent: 80, period: Duration.minutes(1), periods: 5 } as const;

/**
 * Requests the WAF blocked, as a share of all it saw over 15 minutes, from 100 blocked: a caller
 * over its limit or a scan is routine; a fifth of the traffic refused is integrators (or a
 * provider) locked out, or an attack worth knowing of.
 */
export const wafBlockedAlarm = { percent: 20, minimumBlocked: 100, period: Duration.minutes(15) } as const;

/**
 * Payments ending in error as a share of those completed over 15 minutes, from 10 completions:
 * payers decline and run out of funds every day, but half of them failing is a provider down or
 * a broken collection path.
 */
export const paymentFailureRateAlarm = {
  percent: 50,
  minimumCompleted: 10,
  period: Duration.minutes(15),
} as const;

/**
 * Webhook attempts without a 2xx answer as a share of attempts over 15 minutes, from 20 attempts:
 * one merchant's receiver down is theirs to fix (its deliveries show it); most attempts failing is
 * the sender (signing, egress) or the network.
 */
export const webhookFailureRateAlarm = {
  percent: 50,
  minimumAttempts: 20,
  period: Duration.minutes(15),
} as const;

/**
 * An operator down: its failed starts and the requests refused for it over the rule's window
 * (shared/providers/operator-health.ts), at the rule's own threshold.
 */
export const operatorDownAlarm = {
  threshold: operatorHealthRule.failureThreshold,
  period: Duration.minutes(operatorHealthRule.windowMinutes),
} as const;

/** The table operations the service makes; CloudWatch alarms take at most 10 metrics. */
const tableOperations = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];

export interface StageObservabilityProps {
  readonly api: RestApi;
  /** The web ACL's name, which its metrics are dimensioned by. */
  readonly webAclName: string;
  /** The concurrent executions the stage counts on (its registry's accountConcurrencyLimit). */
  readonly accountConcurrencyLimit: number;
  readonly table: Table;
  readonly queues: ReadonlyMap<QueueName, Queue>;
  readonly functions: ServiceFunctions;
}

export class StageObservability {
  /** The stage's dashboard; the alarms' status joins it once every alarm is made (paging.ts). */
  readonly dashboard: Dashboard;

  constructor(
    private readonly stack: Stack,
    private readonly stage: string,
    private readonly props: StageObservabilityProps,
  ) {
    this.addSmsFailureAlarm();
    this.addServerErrorRateAlarm();
    this.addSignInCapAlarm();
    this.addOperationalAlarms();
    this.addWafBlockedAlarm();
    this.addBusinessFailureAlarms();
    this.dashboard = this.addDashboard();
  }

  private addWafBlockedAlarm(): void {
    const { percent, minimumBlocked, period } = wafBlockedAlarm;
    const wafMetric = (metricName: string) =>
      new Metric({
        namespace: 'AWS/WAFV2',
        metricName,
        dimensionsMap: { WebACL: this.props.webAclName, Region: this.stack.region, Rule: 'ALL' },
        period,
        statistic: Stats.SUM,
      });
    this.alarm('WafBlockedAlarm', 'waf-blocked', {
      alarmDescription: `The WAF blocked over ${percent}% of the API's requests (at least ${minimumBlocked}) within ${period.toMinutes()} minutes. Its logs (aws-waf-logs-${stackName(this.stage)}) say which rule and which callers: integrators over their limit, a provider refused, or an attack.`,
      metric: new MathExpression({
        expression: `IF(blocked >= ${minimumBlocked}, 100 * blocked / (blocked + allowed), 0)`,
        usingMetrics: { blocked: wafMetric('BlockedRequests'), allowed: wafMetric('AllowedRequests') },
        label: 'Blocked by the WAF (% of requests)',
        period,
      }),
      threshold: percent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  /**
   * The service's own signals (shared/metrics.ts): payments completing in error, webhook attempts
   * refused. Powertools writes each metric with all its dimensions at once, so each provider and
   * outcome is a metric of its own, summed here.
   */
  private addBusinessFailureAlarms(): void {
    // Every metric carries the stage (shared/metrics.ts), and an alarm matches its dimensions
    // exactly: without `stage`, these alarms would watch a metric that is never written.
    const business = (metricName: string, period: Duration, dimensions: Record<string, string> = {}) =>
      new Metric({
        namespace: businessMetricsNamespace,
        metricName,
        dimensionsMap: { service: serviceName, stage: this.stage, ...dimensions },
        period,
        statistic: Stats.SUM,
      });
    const payments = paymentFailureRateAlarm;
    const completed = (outcome: string) =>
      Object.fromEntries(
        providerCodes.map((provider) => [
          `${outcome}${provider}`,
          business('PaymentsCompleted', payments.period, { outcome, provider }),
        ]),
      );
    const sumOf = (outcome: string) => providerCodes.map((provider) => `${outcome}${provider}`).join(' + ');
    this.alarm('PaymentFailureRateAlarm', 'payment-failure-rate', {
      alarmDescription: `Over ${payments.percent}% of the payments completed within ${payments.period.toMinutes()} minutes (at least ${payments.minimumCompleted}) ended in error: a provider down or the collection path broken. The dashboard splits them by provider.`,
      metric: new MathExpression({
        expression: `IF((${sumOf('success')}) + (${sumOf('error')}) >= ${payments.minimumCompleted}, 100 * (${sumOf('error')}) / ((${sumOf('success')}) + (${sumOf('error')})), 0)`,
        usingMetrics: { ...completed('success'), ...completed('error') },
        label: 'Payments ending in error (% of completed)',
        period: payments.period,
      }),
      threshold: payments.percent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
    // One alarm per operator: its starts failing (a direct adapter), and payers or callers turned
    // away while it is down (pawaPay's published status, or that rule), over the rule's window.
    const operators = operatorDownAlarm;
    for (const provider of providerCodes) {
      this.alarm(`OperatorDown${pascalCase(provider)}Alarm`, `operator-${provider}-down`, {
        alarmDescription: `${provider}: ${operators.threshold} or more starts failed or payers were turned away within ${operators.period.toMinutes()} minutes. The payer pages offer the country's other operators meanwhile, and the API answers 503 provider_unavailable. Look at the 'provider call failed' log lines, and at pawaPay's status page when it is routed there.`,
        metric: new MathExpression({
          expression: 'FILL(failures, 0) + FILL(refused, 0)',
          usingMetrics: {
            failures: business('ProviderFailures', operators.period, { provider }),
            refused: business('OperatorUnavailable', operators.period, { provider }),
          },
          label: `${provider}: failed starts and payers turned away`,
          period: operators.period,
        }),
        threshold: operators.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
    const webhooks = webhookFailureRateAlarm;
    this.alarm('WebhookFailureRateAlarm', 'webhook-failure-rate', {
      alarmDescription: `Over ${webhooks.percent}% of webhook attempts (at least ${webhooks.minimumAttempts}) got no 2xx answer within ${webhooks.period.toMinutes()} minutes: most receivers failing at once points at the sender or the network. The sender's logs have each attempt's status.`,
      metric: new MathExpression({
        expression: `IF(attempts >= ${webhooks.minimumAttempts}, 100 * failures / attempts, 0)`,
        usingMetrics: {
          attempts: business('WebhookAttempts', webhooks.period),
          failures: business('WebhookAttemptFailures', webhooks.period),
        },
        label: 'Webhook attempts failed (% of attempts)',
        period: webhooks.period,
      }),
      threshold: webhooks.percent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  /** An alarm of the stage, named for its stack; a metric that is not sent is not a breach. */
  private alarm(id: string, name: string, props: Omit<AlarmProps, 'alarmName' | 'treatMissingData'>): Alarm {
    return new Alarm(this.stack, id, {
      alarmName: `${stackName(this.stage)}-${name}`,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      ...props,
    });
  }

  /**
   * Messages that failed (refused before the carrier, or failed by it), counted from the workers'
   * `sms message failed` log lines. A few are the senders' typos; many in a row are a gateway,
   * sender id or carrier problem.
   */
  private addSmsFailureAlarm(): void {
    const metric = { namespace: `${serviceName}/${this.stage}`, name: 'SmsFailed' };
    for (const workerName of ['sendSms', 'recordSmsEvents'] as const) {
      const fn = this.props.functions.workers.get(workerName);
      if (!fn) continue;
      new MetricFilter(Stack.of(fn), `${pascalCase(workerName)}FailedFilter`, {
        logGroup: fn.logGroup,
        filterPattern: FilterPattern.stringValue('$.message', '=', 'sms message failed'),
        metricNamespace: metric.namespace,
        metricName: metric.name,
        metricValue: '1',
      });
    }
    this.alarm('SmsFailuresAlarm', 'sms-failures', {
      alarmDescription: `More than ${smsFailureAlarm.threshold} SMS failed within ${smsFailureAlarm.period.toMinutes()} minutes: look at their failedReason (the workers' logs) for a gateway, sender id or carrier problem.`,
      metric: new Metric({
        namespace: metric.namespace,
        metricName: metric.name,
        period: smsFailureAlarm.period,
        statistic: Stats.SUM,
      }),
      threshold: smsFailureAlarm.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  /** The metric `count('SignInCodesRefused', { limit: 'stage' })` writes (shared/metrics.ts). */
  private addSignInCapAlarm(): void {
    this.alarm('SignInCapAlarm', 'sign-in-code-cap', {
      alarmDescription:
        "The stage's hourly cap on dashboard sign-in codes refused codes: likely SMS pumping. Look at the numbers asked for (the platform's messages) and raise signInCodesPerHour in the stage's registry entry only if the demand is real.",
      metric: new Metric({
        namespace: businessMetricsNamespace,
        metricName: 'SignInCodesRefused',
        dimensionsMap: { service: serviceName, stage: this.stage, limit: 'stage' },
        period: signInCapAlarm.period,
        statistic: Stats.SUM,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  private addServerErrorRateAlarm(): void {
    const { period, percent } = serverErrorRateAlarm;
    const apiStage = this.props.api.deploymentStage;
    this.alarm('ApiServerErrorRateAlarm', 'api-5xx-rate', {
      alarmDescription: `More than ${percent}% of the API's requests were answered 5xx over ${period.toMinutes()} minutes: look for errors in the functions' logs and in the access log.`,
      metric: new MathExpression({
        // A period without requests counts as 0%, not as a division by zero.
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: apiStage.metricServerError({ period, statistic: Stats.SUM }),
          requests: apiStage.metricCount({ period, statistic: Stats.SUM }),
        },
        label: '5xx responses (% of requests)',
        period,
      }),
      threshold: percent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  /**
   * The API's slow tail, each queue's backlog, and the table's throttles and errors. Scheduled
   * functions' failures are their Errors alarms (service-functions.ts), like every function's.
   */
  private addOperationalAlarms(): void {
    const { api, queues, table } = this.props;
    const { thresholdMs, period, periods } = apiLatencyAlarm;
    this.alarm('ApiLatencyP99Alarm', 'api-latency-p99', {
      alarmDescription: `The API's p99 latency was above ${thresholdMs} ms for ${periods} periods of ${period.toMinutes()} minutes: look at the slowest functions' durations and at DynamoDB's latency.`,
      metric: api.deploymentStage.metricLatency({ period, statistic: 'p99' }),
      threshold: thresholdMs,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: periods,
    });
    for (const [queueName, queue] of queues) {
      this.alarm(`${pascalCase(queueName)}OldestMessageAlarm`, `${queueName}-oldest-message`, {
        alarmDescription: `A message of ${queueName} has waited over ${oldestMessageAlarmSeconds / 60} minutes, longer than its retries take: its worker is failing, throttled or not keeping up.`,
        metric: queue.metricApproximateAgeOfOldestMessage({
          period: Duration.minutes(5),
          statistic: Stats.MAXIMUM,
        }),
        threshold: oldestMessageAlarmSeconds,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
    // Throttles are counted per function, in its failure-rate alarm (function-alarms.ts); this one
    // warns before they start, while the account still has room.
    const { percent, period: concurrencyPeriod, periods: concurrencyPeriods } = accountConcurrencyAlarm;
    const limit = this.props.accountConcurrencyLimit;
    this.alarm('AccountConcurrencyAlarm', 'account-concurrency', {
      alarmDescription: `The account ran over ${percent}% of the ${limit} concurrent executions the stage counts on (accountConcurrencyLimit) for ${concurrencyPeriods * concurrencyPeriod.toMinutes()} minutes: API calls are about to be throttled. The dashboard's concurrency panel shows which functions hold it; ask AWS for a higher quota, then raise accountConcurrencyLimit.`,
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'ConcurrentExecutions',
        period: concurrencyPeriod,
        statistic: Stats.MAXIMUM,
      }),
      threshold: Math.floor((limit * percent) / 100),
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: concurrencyPeriods,
    });
    const period5 = Duration.minutes(5);
    this.alarm('TableThrottlesAlarm', 'table-throttles', {
      alarmDescription:
        'DynamoDB throttled reads or writes of the table (or a GSI through it): requests slowed or failed.',
      metric: new MathExpression({
        expression: 'reads + writes',
        usingMetrics: {
          reads: table.metric('ReadThrottleEvents', { period: period5, statistic: Stats.SUM }),
          writes: table.metric('WriteThrottleEvents', { period: period5, statistic: Stats.SUM }),
        },
        label: 'Throttled reads and writes',
        period: period5,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
    this.alarm('TableSystemErrorsAlarm', 'table-system-errors', {
      alarmDescription:
        'DynamoDB answered 500s to the service: its own errors, retried by the SDK; a run of them is an AWS incident.',
      metric: table.metricSystemErrorsForOperations({
        operations: tableOperations,
        period: period5,
        statistic: Stats.SUM,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  /** One dashboard per stage: traffic, errors and latency; functions; queues; the table. */
  private addDashboard(): Dashboard {
    const { api, queues, table, functions } = this.props;
    const apiStage = api.deploymentStage;
    const period = Duration.minutes(5);
    const allFunctions = [
      ...functions.routes.values(),
      ...functions.workers.values(),
      ...functions.scheduled.values(),
      ...functions.scheduleTargets.values(),
      ...functions.streamConsumers.values(),
      ...functions.deviceRules.values(),
    ];
    const dashboard = new Dashboard(this.stack, 'Dashboard', { dashboardName: stackName(this.stage) });
    dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [apiStage.metricCount({ period, statistic: Stats.SUM })],
        right: [
          apiStage.metricClientError({ period, statistic: Stats.SUM }),
          apiStage.metricServerError({ period, statistic: Stats.SUM }),
        ],
        width: 12,
      }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: ['p50', 'p90', 'p99'].map((statistic) => apiStage.metricLatency({ period, statistic })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function errors',
        left: allFunctions.map((fn) => fn.metricErrors({ period, statistic: Stats.SUM, label: fn.node.id })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function duration p99 (ms)',
        left: allFunctions.map((fn) => fn.metricDuration({ period, statistic: 'p99', label: fn.node.id })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Queues: oldest message (s)',
        left: [...queues].map(([name, queue]) =>
          queue.metricApproximateAgeOfOldestMessage({ period, statistic: Stats.MAXIMUM, label: name }),
        ),
        width: 12,
      }),
      new GraphWidget({
        title: 'Table: consumed capacity and throttles',
        left: [
          table.metricConsumedReadCapacityUnits({ period, statistic: Stats.SUM }),
          table.metricConsumedWriteCapacityUnits({ period, statistic: Stats.SUM }),
        ],
        right: [
          table.metric('ReadThrottleEvents', { period, statistic: Stats.SUM }),
          table.metric('WriteThrottleEvents', { period, statistic: Stats.SUM }),
        ],
        width: 12,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Function throttles',
        left: allFunctions.map((fn) =>
          fn.metricThrottles({ period, statistic: Stats.SUM, label: fn.node.id }),
        ),
        width: 12,
      }),
      new GraphWidget({
        title: 'Concurrent executions',
        left: [
          new Metric({
            namespace: 'AWS/Lambda',
            metricName: 'ConcurrentExecutions',
            period: Duration.minutes(1),
            statistic: Stats.MAXIMUM,
            label: 'account',
          }),
          ...allFunctions.map((fn) =>
            fn.metric('ConcurrentExecutions', {
              period: Duration.minutes(1),
              statistic: Stats.MAXIMUM,
              label: fn.node.id,
            }),
          ),
        ],
        leftAnnotations: [{ value: this.props.accountConcurrencyLimit, label: 'accountConcurrencyLimit' }],
        width: 12,
      }),
    );
    return dashboard;
  }
}
