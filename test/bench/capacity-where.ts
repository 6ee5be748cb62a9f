import { measuredPaidPayment } from '#test/bench/capacity.ts';
import type { Bench } from '#test/bench/report.ts';

/**
 * Where a paid payment's write units and round trips go, step by step: each item written (ids,
 * days and times generalised) with its units (1 per KB, twice in a transaction, plus 1 per KB in
 * each index the item is in), and the DynamoDB requests in the order sent, with how many round
 * trips they took (requests sent together count as one).
 */
export const capacityWhere: Bench = async () => {
  const paid = await measuredPaidPayment();
  const rows: (string | number)[][] = [];
  for (const step of paid.steps.filter((s) => !s.extra)) {
    const writes = (step.writes ?? []).map((w) => `${w.item} ${w.units}`).join('; ');
    rows.push([
      step.step,
      step.writeUnits,
      writes || '-',
      step.roundTrips ?? 0,
      (step.requestNames ?? []).join(', '),
    ]);
  }
  rows.push([
    'whole paid payment',
    paid.writeUnits,
    '',
    paid.steps.filter((s) => !s.extra).reduce((sum, s) => sum + (s.roundTrips ?? 0), 0),
    '',
  ]);
  return {
    name: 'capacity-where',
    title: "Where a paid payment's write units and DynamoDB round trips go",
    columns: ['step', 'write units', 'items written (units)', 'round trips', 'requests, in order'],
    rows,
    data: paid.steps.map(({ step, writeUnits, writes, roundTrips, requestNames }) => ({
      step,
      writeUnits,
      writes,
      roundTrips,
      requestNames,
    })),
  };
};
