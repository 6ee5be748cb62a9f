import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { deviceRuleEntries } from '#shared/catalogue/device-rules.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { scheduleEntries, scheduleTargetEntries } from '#shared/catalogue/schedules.ts';
import { streamConsumerEntries } from '#shared/catalogue/stream-consumers.ts';

/**
 * Every function of the stack, whatever starts it: endpoints, queue workers, stream consumers,
 * schedules, schedule targets and device rules.
 */
export const functionEntries = /* @__PURE__ */ (() => [
  ...endpointEntries,
  ...workerEntries,
  ...streamConsumerEntries,
  ...scheduleEntries,
  ...scheduleTargetEntries,
  ...deviceRuleEntries,
])();
