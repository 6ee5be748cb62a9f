/**
 * The stage's concurrency budget, in one place: how many concurrent executions each background
 * function (queue workers, stream consumers, schedules, schedule targets, device rules) may take
 * from the concurrency the stage counts on (`accountConcurrencyLimit` in its registry entry), so
 * that the API's functions, which reserve nothing, always keep their share. A webhook receiver
 * that takes the 30 s the interface gives it (§6 of the spec: "30 seconds before retry") holds its
 * sender for that long: the sender's cap, not the receiver, decides how much of the account slow
 * receivers can hold.
 *
 * Two tools, each where it fits:
 * - a queue worker gets its SQS event source's maximum concurrency: a cap that reserves nothing,
 *   so an idle worker leaves its share to the API (and to the stage's other functions);
 * - every other background function gets reserved concurrency: both a cap and a guarantee, so a
 *   flood of API calls cannot starve the stream consumer that dispatches completions, and a
 *   schedule runs one run at a time.
 *
 * The synth refuses a budget that leaves the API less than `apiMinimumShare` of the limit, or
 * leaves unreserved less than the 100 executions Lambda requires of every account.
 * docs/operations/concurrency.md has the table for the default limit.
 */
import type { DeviceRuleName } from '#shared/catalogue/device-rules.ts';
import type { WorkerName } from '#shared/catalogue/queue-workers.ts';
import type { ScheduleName, ScheduleTargetName } from '#shared/catalogue/schedules.ts';
import type { StreamConsumerName } from '#shared/catalogue/stream-consumers.ts';

/**
 * What a stage counts on when its registry entry does not say: lower than Lambda's usual 1,000,
 * because a new account may be given less, and a budget sized for more than the account has would
 * either fail the deploy (reservations) or leave the API less than its share (caps). Too low only
 * slows background work; the operator sets the real figure (`aws lambda get-account-settings`).
 */
export const defaultAccountConcurrencyLimit = 200;

/** The least the API keeps, whatever every background function takes at once. */
export const apiMinimumShare = 0.5;

/** Lambda refuses reservations that leave an account fewer unreserved executions than this. */
export const lambdaMinimumUnreserved = 100;

/** SQS event sources take a maximum concurrency from 2 to 1,000. */
const sqsMaximumConcurrencyRange = { min: 2, max: 1000 } as const;

/**
 * Each queue worker's share of the limit, as its event source's maximum concurrency. The webhook
 * sender has the largest: it alone waits on other people's servers (up to 30 s each).
 */
export const workerShares = {
  sendWebhooks: 0.1,
  sendSms: 0.02,
  recordSmsEvents: 0.02,
  expirePaymentRequests: 0.03,
  sendSandboxCallbacks: 0.02,
} as const satisfies Record<WorkerName, number>;

/**
 * Reserved concurrency of the other background functions, as a share of the limit (at least 1).
 * The stream consumer runs one batch per shard of the table's stream; its share is far above the
 * shards a table of this size has, and its IteratorAge alarm says when it is not.
 */
export const reservedShares = {
  dispatchTableChanges: 0.05,
  expireEscrow: 0.02,
  recordDevicePresence: 0.03,
} as const satisfies Record<StreamConsumerName | ScheduleTargetName | DeviceRuleName, number>;

/** A schedule runs every minute or less often and ends before the next run: one at a time. */
export const scheduleReservation = 1 as const satisfies number;

export type ReservedFunctionName = keyof typeof reservedShares | ScheduleName;

export interface ConcurrencyBudget {
  readonly accountLimit: number;
  /** Each queue worker's event source maximum concurrency. */
  readonly workerMaximumConcurrency: Readonly<Record<WorkerName, number>>;
  /** Each other background function's reserved concurrency. */
  readonly reservedConcurrency: Readonly<Record<ReservedFunctionName, number>>;
  /** What the API keeps when every background function runs at its cap. */
  readonly apiConcurrency: number;
}

export class ConcurrencyBudgetError extends Error {}

/**
 * The budget for a stage counting on `accountLimit` concurrent executions, with the schedules it
 * runs; refused when the API would keep less than its share.
 */
export function concurrencyBudgetFor(
  accountLimit: number,
  scheduleNames: readonly ScheduleName[],
): ConcurrencyBudget {
  const share = (fraction: number, min: number) => Math.max(min, Math.floor(accountLimit * fraction));
  const workerMaximumConcurrency = Object.fromEntries(
    Object.entries(workerShares).map(([name, fraction]) => [
      name,
      Math.min(sqsMaximumConcurrencyRange.max, share(fraction, sqsMaximumConcurrencyRange.min)),
    ]),
  ) as Record<WorkerName, number>;
  const reservedConcurrency = {
    ...Object.fromEntries(
      Object.entries(reservedShares).map(([name, fraction]) => [name, share(fraction, 1)]),
    ),
    ...Object.fromEntries(scheduleNames.map((name) => [name, scheduleReservation])),
  } as Record<ReservedFunctionName, number>;
  const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);
  const reserved = sum(reservedConcurrency);
  const capped = sum(workerMaximumConcurrency);
  const apiConcurrency = accountLimit - reserved - capped;
  if (accountLimit - reserved < lambdaMinimumUnreserved) {
    throw new ConcurrencyBudgetError(
      `accountConcurrencyLimit ${accountLimit}: the background functions reserve ${reserved}, which would leave fewer than the ${lambdaMinimumUnreserved} unreserved executions Lambda requires; ask AWS for a higher concurrency quota and set it in the stage's registry entry`,
    );
  }
  if (apiConcurrency < accountLimit * apiMinimumShare) {
    throw new ConcurrencyBudgetError(
      `accountConcurrencyLimit ${accountLimit}: the background functions may take ${reserved + capped} executions, leaving the API ${apiConcurrency}, less than its ${apiMinimumShare * 100}%; ask AWS for a higher concurrency quota, or lower the shares in infra/concurrency-budget.ts`,
    );
  }
  return { accountLimit, workerMaximumConcurrency, reservedConcurrency, apiConcurrency };
}

/** The registry's `accountConcurrencyLimit`: a whole number Lambda could grant an account. */
export function checkAccountConcurrencyLimit(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > 1_000_000) {
    throw new Error('must be a whole number of concurrent executions (aws lambda get-account-settings)');
  }
  return value as number;
}
