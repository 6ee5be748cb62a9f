/** What every benchmark hands back: a table for people and raw data for `.bench/results.json`. */
export interface BenchReport {
  /** Key in results.json. */
  readonly name: string;
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number)[])[];
  readonly data: unknown;
}

export type Bench = () => Promise<BenchReport>;

/** The value at percentile `p` of values sorted in ascending order. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const formatCell = (value: string | number) =>
  typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 1 }) : value;

/** A plain-text table: text columns left-aligned, numbers right-aligned. */
export function formatTable(report: BenchReport): string {
  const cells = [report.columns.map(String), ...report.rows.map((row) => row.map(formatCell))];
  const numeric = report.columns.map((_, column) =>
    report.rows.every((row) => typeof row[column] === 'number'),
  );
  const widths = report.columns.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        numeric[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  const [header, ...body] = cells;
  return [
    report.title,
    line(header ?? []),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...body.map(line),
  ].join('\n');
}
