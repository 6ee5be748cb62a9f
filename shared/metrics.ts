import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { stageName } from '#shared/stage.ts';

/**
 * The service's business metrics, written as CloudWatch embedded metric format (EMF) lines to
 * stdout: CloudWatch extracts them from the function's log, so counting costs no request. The
 * local host and the tests turn them off (POWERTOOLS_METRICS_DISABLED) to keep their output
 * readable. Every metric has the dimension `stage` (besides Powertools' `service`): stages may
 * share an account, and an alarm of one must not count another's payments.
 */
export const metrics = new Metrics({
  namespace: 'PartnerPayments',
  serviceName: 'partner-payments',
  defaultDimensions: { stage: stageName() },
});

export type MetricName =
  | 'PaymentsCreated'
  | 'PaymentsCompleted'
  | 'TransfersCreated'
  | 'TransfersCompleted'
  | 'RefundsCreated'
  | 'RefundsCompleted'
  | 'WebhookAttempts'
  | 'WebhookAttemptFailures'
  | 'WebhooksFailed'
  | 'LedgerConflicts'
  | 'LedgerRetries'
  | 'BusinessesOnboarded'
  | 'LinkRequestsCreated'
  | 'LinkRequestsSettled'
  | 'ComplianceVerificationsCompleted'
  | 'OrphanCollections'
  | 'OrphanRefunds'
  | 'SignInCodesSent'
  /** A code refused by a limit (dimension `limit`: phone, address, stage); stage is the alarm's. */
  | 'SignInCodesRefused'
  | 'SignInCodesWrong'
  /** A transfer's step-up code sent, or typed wrong (the dashboard's send money, above the threshold). */
  | 'StepUpCodesSent'
  | 'StepUpCodesWrong'
  /** SMS credit bought from a store's balance (issue 34). */
  | 'SmsCreditBought'
  | 'DashboardSignIns'
  | 'DashboardSignUps'
  | 'DashboardInvitationsSent'
  | 'DashboardInvitationsCancelled'
  | 'DashboardInvitationsAccepted'
  | 'DashboardRoleChanges'
  | 'DashboardMembersRemoved'
  | 'DashboardSignOutsEverywhere'
  /** A start that could not reach a direct adapter's provider (dimension `provider`: the method). */
  | 'ProviderFailures'
  /** A payer or a caller turned away because the operator is down (dimension `provider`). */
  | 'OperatorUnavailable'
  | 'PaymentRequestsEnded'
  | 'PaymentAttemptsFailed';

/**
 * Counts one occurrence. With dimensions (outcome, provider) it is written at once as a metric of
 * its own, since the invocation's other metrics do not share them.
 */
export function count(name: MetricName, dimensions?: Record<string, string>): void {
  if (!dimensions) {
    metrics.addMetric(name, MetricUnit.Count, 1);
    return;
  }
  const single = metrics.singleMetric();
  for (const [dimension, value] of Object.entries(dimensions)) single.addDimension(dimension, value);
  single.addMetric(name, MetricUnit.Count, 1);
}

/** Writes what the invocation counted, once it ends however it ends. */
export function publishMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}

/** Wraps a worker's handler so its metrics are written when each invocation ends. */
export function withMetrics<E, C, R>(handler: (event: E, context: C) => Promise<R>) {
  return async (event: E, context: C): Promise<R> => {
    try {
      return await handler(event, context);
    } finally {
      publishMetrics();
    }
  };
}
