import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atExpression, scheduleEscrowExpiry } from '#shared/aws/scheduler.ts';

const scheduler = mockClient(SchedulerClient);
const settings = {
  ESCROW_SCHEDULE_GROUP: 'partner-payments-dev-escrows',
  ESCROW_EXPIRY_FUNCTION_ARN: 'arn:aws:lambda:eu-west-1:123456789012:function:pp-dev-expireEscrow',
  ESCROW_SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/pp-dev-scheduler',
};

beforeEach(() => {
  scheduler.reset();
  Object.assign(process.env, settings);
});
afterEach(() => {
  for (const name of Object.keys(settings)) delete process.env[name];
});

describe("the escrow's one-time schedule", () => {
  it('rounds a time with milliseconds up to the next second, so it never fires before the hold ends', () => {
    expect(atExpression('2026-11-23T08:00:04.001Z')).toBe('at(2026-11-23T08:00:05)');
    expect(atExpression('2026-11-23T23:59:59.999Z')).toBe('at(2026-11-24T00:00:00)');
  });

  it('keeps a whole second as it is', () => {
    expect(atExpression('2026-11-23T08:00:04Z')).toBe('at(2026-11-23T08:00:04)');
    expect(atExpression('2026-11-23T08:00:04.000Z')).toBe('at(2026-11-23T08:00:04)');
  });

  it('is created at the rounded-up time, in UTC, for the expiry function with the escrow id', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduleEscrowExpiry('esc_1', '2026-11-23T08:00:04.321Z');
    const [call] = scheduler.commandCalls(CreateScheduleCommand);
    expect(call?.args[0].input).toMatchObject({
      Name: 'escrow-esc_1',
      GroupName: settings.ESCROW_SCHEDULE_GROUP,
      ScheduleExpression: 'at(2026-11-23T08:00:05)',
      ScheduleExpressionTimezone: 'UTC',
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: settings.ESCROW_EXPIRY_FUNCTION_ARN, Input: '{"escrowId":"esc_1"}' },
    });
  });
});
