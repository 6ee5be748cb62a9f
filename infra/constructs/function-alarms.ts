/**
 * The alarms of one function, beside it in its group's nested stack. None notifies by itself: each
 * group's alarms roll up into the group's composite, and those into the stage's one paging alarm
 * (paging.ts). What raises them is a rate or a run of failures, never a single error in a minute:
 * a request retried, a message redelivered or a sweep redone by the next run is not worth a page.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * Errors and throttles of a function over 5 minutes, against its invocations (a throttled call is
 * not counted as one): more than 5% of them, and at least 3, so one failure among a handful of
 * calls at night does not page.
 */
export const functionFailureRateAlarm = {
  percent: 5,
  minimumFailures: 3,
  period: Duration.minutes(5),
} as const;

/**
 * A schedule failing run after run: each run redoes what the last left, so one failed run is
 * nothing; three runs in a row (two for a schedule of five minutes or more) is a sweep that no
 * longer sweeps.
 */
export const failedSweepAlarm = { runsInARow: 3, runsInARowWhenSlow: 2 } as const;

/**
 * The age of the newest record the stream consumer has read: over a minute for five minutes, the
 * completions' webhooks and the payment requests' expiry checks are late (a batch takes well under
 * a second), and at 24 h records leave the stream unread.
 */
export const iteratorAgeAlarm = { thresholdMs: 60_000, period: Duration.minutes(1), periods: 5 } as const;

/** The share of a function's calls that failed or were throttled: `name-errors`. */
export function addFailureRateAlarm(fn: IFunction, functionName: string): Alarm {
  const { percent, minimumFailures, period } = functionFailureRateAlarm;
  return new Alarm(Stack.of(fn), `${fn.node.id}ErrorsAlarm`, {
    alarmName: `${functionName}-errors`,
    alarmDescription: `Over ${percent}% of ${functionName}'s calls failed (an unhandled error, a timeout, a crash) or were throttled (its concurrency or the account's ran out) within ${period.toMinutes()} minutes. Its log group has the request ids and stack traces; the dashboard shows its throttles.`,
    metric: new MathExpression({
      // A period with few failures counts as 0%, so that one error among two calls does not page.
      expression: `IF(errors + throttles >= ${minimumFailures}, 100 * (errors + throttles) / (invocations + throttles), 0)`,
      usingMetrics: {
        errors: fn.metricErrors({ period, statistic: Stats.SUM }),
        throttles: fn.metricThrottles({ period, statistic: Stats.SUM }),
        invocations: fn.metricInvocations({ period, statistic: Stats.SUM }),
      },
      label: 'Failed or throttled (% of calls)',
      period,
    }),
    threshold: percent,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    // A function that is not called sends no metric: that is quiet, not broken.
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/** A schedule whose runs fail one after another: `name-errors`, as every function's. */
export function addFailedSweepAlarm(fn: IFunction, functionName: string, everyMinutes: number): Alarm {
  const runs = everyMinutes >= 5 ? failedSweepAlarm.runsInARowWhenSlow : failedSweepAlarm.runsInARow;
  const period = Duration.minutes(everyMinutes);
  return new Alarm(Stack.of(fn), `${fn.node.id}ErrorsAlarm`, {
    alarmName: `${functionName}-errors`,
    alarmDescription: `${functionName} failed (or was throttled) in ${runs} runs in a row: what it sweeps is piling up. Its log group has the stack traces.`,
    metric: new MathExpression({
      expression: 'errors + throttles',
      usingMetrics: {
        errors: fn.metricErrors({ period, statistic: Stats.SUM }),
        throttles: fn.metricThrottles({ period, statistic: Stats.SUM }),
      },
      label: 'Failed or throttled runs',
      period,
    }),
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: runs,
    datapointsToAlarm: runs,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/** The stream consumer falling behind the table's changes. */
export function addIteratorAgeAlarm(fn: IFunction, functionName: string): Alarm {
  const { thresholdMs, period, periods } = iteratorAgeAlarm;
  return new Alarm(Stack.of(fn), `${fn.node.id}IteratorAgeAlarm`, {
    alarmName: `${functionName}-iterator-age`,
    alarmDescription: `${functionName} is over ${thresholdMs / 1000} s behind the table's stream for ${periods} minutes: completions' webhooks and expiry checks are late. Look at its errors, throttles (reserved concurrency) and duration.`,
    metric: fn.metric('IteratorAge', { period, statistic: Stats.MAXIMUM }),
    threshold: thresholdMs,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: periods,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/** Minutes between runs of an EventBridge `rate(...)` expression; a cron runs at most every minute. */
export function minutesBetweenRuns(expression: string): number {
  const match = /^rate\((\d+) (minute|minutes|hour|hours)\)$/.exec(expression);
  if (!match) return 1;
  const amount = Number(match[1]);
  return match[2]?.startsWith('hour') ? amount * 60 : amount;
}
