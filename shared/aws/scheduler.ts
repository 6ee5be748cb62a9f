import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { traced } from '#shared/aws/tracing.ts';

/**
 * One EventBridge Scheduler client per container. The endpoint comes from the standard
 * AWS_ENDPOINT_URL_SCHEDULER variable when it is set (the local host's stand-in), so nothing here
 * knows where it runs. The stack sets the group, the target and the role (access
 * `schedule:escrowExpiry` in its declaration).
 */
// Pure: a function whose code never schedules leaves the client, and its SDK, out of its bundle.
export const scheduler = /* @__PURE__ */ traced(/* @__PURE__ */ new SchedulerClient({}));

function setting(variable: string): string {
  const value = process.env[variable];
  if (!value) throw new Error(`${variable} is not set: the function needs the access schedule:escrowExpiry`);
  return value;
}

const scheduleName = (escrowId: string) => `escrow-${escrowId}`;

/**
 * Scheduler's `at()` takes whole seconds; a time with milliseconds is rounded up, never down, so
 * the schedule never fires before the hold ends (the expiry would find the escrow not yet due).
 */
export function atExpression(time: string): string {
  const seconds = Math.ceil(Date.parse(time) / 1000);
  return `at(${new Date(seconds * 1000).toISOString().slice(0, 19)})`;
}

/**
 * A one-time schedule at `holdUntil` (UTC, to the second, rounded up) invoking the expiry function
 * with the escrow's id, deleted by Scheduler once it ran. Creating it twice (a retried callback)
 * is fine.
 */
export async function scheduleEscrowExpiry(escrowId: string, holdUntil: string): Promise<void> {
  try {
    await scheduler.send(
      new CreateScheduleCommand({
        Name: scheduleName(escrowId),
        GroupName: setting('ESCROW_SCHEDULE_GROUP'),
        ScheduleExpression: atExpression(holdUntil),
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: setting('ESCROW_EXPIRY_FUNCTION_ARN'),
          RoleArn: setting('ESCROW_SCHEDULER_ROLE_ARN'),
          Input: JSON.stringify({ escrowId }),
          RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 86_400 },
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
}

/** The schedule of an escrow that ended before its time; already gone is fine. */
export async function cancelEscrowExpiry(escrowId: string): Promise<void> {
  try {
    await scheduler.send(
      new DeleteScheduleCommand({
        Name: scheduleName(escrowId),
        GroupName: setting('ESCROW_SCHEDULE_GROUP'),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
