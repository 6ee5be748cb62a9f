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
  readonly table: Table;
  readonly queues: ReadonlyMap<QueueName, Queue>;
  readonly functions: ServiceFunctions;
}

export class StageObservability {
  constructor(
    private readonly stack: Stack,
    private readonly stage: string,
    private readonly props: StageObservabilityProps,
  ) {
    this.addSmsFailureAlarm();
    this.addServerErrorRateAlarm();
    this.addSignInCapAlarm();
    this.addOperationalAlarms();
    this.addDashboard();
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
        namespace: 'PartnerPayments',
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
    // Lambda's account-wide Throttles: no function has reserved concurrency, so a throttle means
    // the account's concurrency ran out, whichever function it hit.
    this.alarm('FunctionThrottlesAlarm', 'function-throttles', {
      alarmDescription:
        "Lambda throttled invocations: the account's concurrency ran out. API callers got an error; a queue's batch waits and is retried. The dashboard's function panels show which.",
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Throttles',
        period: Duration.minutes(1),
        statistic: Stats.SUM,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
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
  private addDashboard(): void {
    const { api, queues, table, functions } = this.props;
    const apiStage = api.deploymentStage;
    const period = Duration.minutes(5);
    const allFunctions = [
      ...functions.routes.values(),
      ...functions.workers.values(),
      ...functions.scheduled.values(),
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
  }
}
