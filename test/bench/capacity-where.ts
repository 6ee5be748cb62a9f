import { measuredPaidPayment, measuredPawapayPayment } from '#test/bench/capacity.ts';
import type { PaidPayment } from '#test/bench/paid-payment.ts';
import type { Bench } from '#test/bench/report.ts';

/**
 * Where a paid payment's write units and round trips go, step by step: each item written (ids,
 * days and times generalised) with its units (1 per KB, twice in a transaction, plus 1 per KB in
 * each index the item is in), and the DynamoDB requests in the order sent, with how many round
 * trips they took (requests sent together count as one).
 */
export const capacityWhere: Bench = async () => {
  const paid = await measuredPaidPayment();
  const rows = [...rowsOf(paid, ''), ...rowsOf(await measuredPawapayPayment(), 'through pawaPay: ')];
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

/** One row per step of a paid payment, then its whole; `prefix` says which route it took. */
function rowsOf(paid: PaidPayment, prefix: string): (string | number)[][] {
  const rows: (string | number)[][] = paid.steps
    .filter((s) => !s.extra)
    .map((step) => [
      `${prefix}${step.step}`,
      step.writeUnits,
      (step.writes ?? []).map((w) => `${w.item} ${w.units}`).join('; ') || '-',
      step.roundTrips ?? 0,
      (step.requestNames ?? []).join(', '),
    ]);
  rows.push([
    `${prefix}whole paid payment`,
    paid.writeUnits,
    '',
    paid.steps.filter((s) => !s.extra).reduce((sum, s) => sum + (s.roundTrips ?? 0), 0),
    '',
  ]);
  return rows;
}
