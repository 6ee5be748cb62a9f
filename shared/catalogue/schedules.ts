import type { FunctionDeclaration } from '#shared/catalogue/access.ts';
import { paysOut } from '#shared/catalogue/access.ts';
import { type Located, locatedIn } from '#shared/catalogue/entry-files.ts';

/** A function run on a timer (an EventBridge rule on AWS, a timer on the local host). */
export interface Schedule extends FunctionDeclaration {
  /** An EventBridge schedule expression: `rate(1 minute)`, `cron(...)`. */
  readonly expression: string;
}

/** Each in `functions/workers/`. */
export const schedules = /* @__PURE__ */ locatedIn('workers', {
  /**
   * Asks the providers about payouts (transfers, refunds, orphans' refunds) whose answer never came,
   * and settles those it has an answer for; one the provider never received is asked again (the
   * sandbox's answer then goes through its callbacks queue).
   */
  sweepUnsettledPayouts: {
    expression: 'rate(1 minute)',
    access: [
      'table:GetItem',
      'table:Query',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      'secret:providers',
      'queue:send:sandboxCallbacks',
    ],
  },
  /**
   * Asks the live providers about collections whose callback never came, with backoff, to a bound.
   * A request it finds over by time it ends, taking a soundbox's QR off its device; a collection
   * it finds paid too late it pays back (the orphan's payout, through the sandbox's queue there).
   */
  sweepPendingCollections: {
    expression: 'rate(1 minute)',
    access: [
      'table:GetItem',
      'table:Query',
      'table:PutItem',
      'table:UpdateItem',
      'table:ConditionCheckItem',
      'secret:providers',
      'queue:send:sandboxCallbacks',
      'schedule:escrowExpiry',
      'device:push',
    ],
  },
  /** Sends again the device pushes (QR, announcement) that failed when first sent. */
  sweepDevicePushes: {
    expression: 'rate(1 minute)',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem', 'table:DeleteItem', 'device:push'],
  },
  /**
   * Held escrows past their time whose one-time schedule was lost (its creation failed, or it was
   * deleted by hand): their hold ends here instead.
   */
  sweepEscrows: {
    expression: 'rate(5 minutes)',
    access: [
      'table:GetItem',
      'table:Query',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...paysOut,
    ],
  },
  /**
   * Automatic settlement (issue 34): the stores whose owner chose this hour (UTC) withdraw what
   * they have above the amount they keep to the chosen payout account, once a day each (the day's
   * reference). Hourly: a `rate`, not a cron, so its failed-runs alarm counts runs of an hour.
   */
  settleAutomatically: {
    expression: 'rate(1 hour)',
    // A withdrawal's access (`createWithdrawal`): the transfer path's writes and the provider's payout.
    access: [
      'table:GetItem',
      'table:Query',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...paysOut,
    ],
  },
} satisfies Record<string, Schedule>);

export type ScheduleName = keyof typeof schedules;

export const scheduleEntries = /* @__PURE__ */ Object.entries(schedules) as [
  ScheduleName,
  Schedule & Located,
][];

/** A function EventBridge Scheduler invokes from one-time schedules the service creates. */
export type ScheduleTarget = FunctionDeclaration;

/** Each in `functions/workers/`. */
export const scheduleTargets = /* @__PURE__ */ locatedIn('workers', {
  /** Ends one escrow's hold at its `holdUntil`: `{"escrowId": ...}` in, onExpiry applied once. */
  expireEscrow: {
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'table:DeleteItem', ...paysOut],
  },
} satisfies Record<string, ScheduleTarget>);

export type ScheduleTargetName = keyof typeof scheduleTargets;

export const scheduleTargetEntries = /* @__PURE__ */ Object.entries(scheduleTargets) as [
  ScheduleTargetName,
  ScheduleTarget & Located,
][];
