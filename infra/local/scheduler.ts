import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { type ScheduleName, scheduleEntries } from '#shared/catalogue/schedules.ts';
import { lambdaContext } from './lambda-context.ts';

type ScheduledHandler = (event: ScheduledEvent, context: Context) => unknown;

/**
 * How often each schedule runs on the laptop, in seconds (the stack's rules: every minute, or five).
 * Tests make them shorter.
 */
export function localIntervals(): Record<ScheduleName, number> {
  return {
    sweepUnsettledPayouts: seconds(process.env.PAYOUT_SWEEP_SECONDS, 30),
    sweepEscrows: seconds(process.env.ESCROW_SWEEP_SECONDS, 30),
    // A QR that missed its device (the broker was down) should reach it within seconds of its return.
    sweepDevicePushes: seconds(process.env.DEVICE_PUSH_SWEEP_SECONDS, 2),
    sweepPendingCollections: seconds(process.env.COLLECTION_SWEEP_SECONDS, 30),
    // Hourly on a stage; every minute here, so a setting made for this hour is seen paid in a
    // minute (a store is dealt with once a day whatever runs).
    settleAutomatically: seconds(process.env.AUTOMATIC_SETTLEMENT_SECONDS, 60),
  };
}

const seconds = (value: string | undefined, fallback: number) => {
  const number = Number(value);
  return value && Number.isFinite(number) && number > 0 ? number : fallback;
};

export interface LocalSchedules {
  /** Clears the timers and waits for runs under way. */
  stop(): Promise<void>;
}

/**
 * Plays the part of the stack's EventBridge rules: a timer per schedule calls its handler, imported
 * on first use, with a scheduled event. A run still going when the timer fires again is not
 * doubled: the tick is skipped.
 */
export function runSchedules(projectRoot: string, intervals = localIntervals()): LocalSchedules {
  const runs = new Set<Promise<void>>();
  const timers = scheduleEntries.map(([name, schedule]) => {
    let handler: Promise<ScheduledHandler> | undefined;
    let running = false;
    const tick = () => {
      if (running) return;
      running = true;
      handler ??= import(pathToFileURL(join(projectRoot, schedule.entry)).href).then(
        (module: { handler: ScheduledHandler }) => module.handler,
      );
      const run = handler
        .then((loaded) => loaded(scheduledEvent(name), lambdaContext(name, 50_000)))
        .then(
          () => undefined,
          (error: unknown) => {
            handler = undefined;
            console.error(`[${name}] failed:`, error);
          },
        )
        .finally(() => {
          running = false;
          runs.delete(run);
        });
      runs.add(run);
    };
    return setInterval(tick, intervals[name] * 1000);
  });
  return {
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(runs);
    },
  };
}

function scheduledEvent(name: string): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region: process.env.AWS_REGION ?? 'eu-west-1',
    resources: [`arn:aws:events:local:000000000000:rule/${name}`],
    detail: {},
  };
}
