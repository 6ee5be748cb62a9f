import { describe, expect, it } from 'vitest';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import {
  defaultWindow,
  exportFiltersOf,
  francs,
  matchesSearch,
  spreadsheetSafe,
} from '#shared/operations/transaction-export.ts';

describe('the CSV export’s fields', () => {
  it('writes francs as people write them: whole without decimals, else two', () => {
    expect(francs(150_000)).toBe('1500');
    expect(francs(150_025)).toBe('1500.25');
    expect(francs(150_005)).toBe('1500.05');
    expect(francs(0)).toBe('0');
    expect(francs(-150_050)).toBe('-1500.50');
  });

  it('disarms what a spreadsheet would run as a formula, and leaves numbers and phones alone', () => {
    expect(spreadsheetSafe('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(spreadsheetSafe('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(spreadsheetSafe('+cmd|x')).toBe(`'+cmd|x`);
    expect(spreadsheetSafe('-2+3')).toBe(`'-2+3`);
    expect(spreadsheetSafe('+2250700000001')).toBe('+2250700000001');
    expect(spreadsheetSafe('-1500')).toBe('-1500');
    expect(spreadsheetSafe('Café, « table 4 »')).toBe('Café, « table 4 »');
  });

  it('searches the id, part of the reference in any case, or four digits of the payer’s number', () => {
    const record = {
      id: 'bfe37c2f-5b1d-4c1e-9d7a-0d3e6a2f4b55',
      reference: 'Commande-2042',
      counterpartIdentifier: '+2250700001234',
    } as TransactionRecord;
    expect(matchesSearch(record, undefined)).toBe(true);
    expect(matchesSearch(record, record.id)).toBe(true);
    expect(matchesSearch(record, 'commande-20')).toBe(true);
    expect(matchesSearch(record, '07 00 00 12')).toBe(true);
    expect(matchesSearch(record, '123')).toBe(false);
    expect(matchesSearch(record, 'autre')).toBe(false);
  });
});

describe('the export’s window', () => {
  const now = new Date('2026-11-27T10:00:00Z');

  it('is the last 30 days by default, today included', () => {
    expect(defaultWindow(now)).toEqual({ from: '2026-10-29', to: '2026-11-27' });
    expect(exportFiltersOf({}, now)).toMatchObject({
      filters: { from: '2026-10-29', to: '2026-11-27' },
      errors: [],
    });
  });

  it('is at most 90 days, as the API’s list, and made of days that exist', () => {
    expect(exportFiltersOf({ from: '2026-01-01', to: '2026-04-01' }, now).errors).toEqual([]);
    expect(exportFiltersOf({ from: '2026-01-01', to: '2026-04-02' }, now).errors).toEqual([
      { field: 'to', problem: 'windowTooLong' },
    ]);
    expect(exportFiltersOf({ from: '2026-02-30' }, now).errors).toEqual([
      { field: 'from', problem: 'dayMalformed' },
    ]);
    expect(exportFiltersOf({ from: '2026-03-02', to: '2026-03-01' }, now).errors).toEqual([
      { field: 'to', problem: 'toBeforeFrom' },
    ]);
  });

  it('takes the list’s filters, each within its list', () => {
    const { filters, errors } = exportFiltersOf(
      { type: 'refund', status: 'success', operator: 'orange_money', q: ' commande ', store: '' },
      now,
    );
    expect(errors).toEqual([]);
    expect(filters).toMatchObject({
      type: 'refund',
      status: 'success',
      operator: 'orange_money',
      q: 'commande',
    });
    expect(filters.store).toBeUndefined();
    expect(exportFiltersOf({ type: 'gift', status: 'done', operator: 'Wave!' }, now).errors).toEqual([
      { field: 'type', problem: 'unknownType' },
      { field: 'status', problem: 'unknownStatus' },
      { field: 'operator', problem: 'operatorMalformed' },
    ]);
  });
});
