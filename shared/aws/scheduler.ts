import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';

/**
 * One EventBridge Scheduler client per container. The endpoint comes from the standard
 * AWS_ENDPOINT_URL_SCHEDULER variable when it is set (the local host's stand-in), so nothing here
 * knows where it runs. The stack sets the group, the target and the role (access
 * `schedule:escrowExpiry` in the route table).
 */
export const scheduler = new SchedulerClient({});

function setting(variable: string): string {
  const value = process.env[variable];
  if (!value) throw new Error(`${variable} is not set: the function needs the access schedule:escrowExpiry`);
  return value;
}

const scheduleName = (escrowId: string) => `escrow-${escrowId}`;

/**
 * A one-time schedule at `holdUntil` (UTC, to the second) invoking the expiry function with the
 * escrow's id, deleted by Scheduler once it ran. Creating it twice (a retried callback) is fine.
 */
export async function scheduleEscrowExpiry(escrowId: string, holdUntil: string): Promise<void> {
  try {
    await scheduler.send(
      new CreateScheduleCommand({
        Name: scheduleName(escrowId),
        GroupName: setting('ESCROW_SCHEDULE_GROUP'),
        ScheduleExpression: `at(${holdUntil.slice(0, 19)})`,
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
