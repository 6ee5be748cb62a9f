import { describe, expect, it } from 'vitest';
import { centsOfFrancs } from '#shared/operations/dashboard-payment-actions.ts';
import { transactionFiltersOf } from '#shared/operations/dashboard-transactions.ts';
import { filterQuery } from '#shared/pages/dashboard-transactions.ts';

/**
 * The transactions list's filters as the address gives them (the names the export shares), and the
 * refund's amount as a person types it: what is kept, what is refused and why.
 */
const store = '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10';
const today = '2026-11-27';

describe('the transactions list’s filters', () => {
  it('takes the last 30 days, today included, by default', () => {
    expect(transactionFiltersOf({}, [store], today)).toEqual({
      filters: {
        store: undefined,
        type: undefined,
        status: undefined,
        operator: undefined,
        from: '2026-10-29',
        to: today,
        q: undefined,
        page: 1,
      },
      errors: [],
    });
  });

  it('keeps the filters it knows, and says which it drops', () => {
    const { filters, errors } = transactionFiltersOf(
      { store, type: 'refund', status: 'gone', operator: 'wave', q: '  order-1  ', page: '3' },
      [store],
      today,
    );
    expect(filters).toMatchObject({ store, type: 'refund', operator: 'wave', q: 'order-1', page: 3 });
    expect(filters.status).toBeUndefined();
    expect(errors).toEqual([{ field: 'status', problem: 'unknown' }]);
    // Another business's store is not one of the choices.
    expect(transactionFiltersOf({ store: 'other' }, [store], today).errors).toEqual([
      { field: 'store', problem: 'unknown' },
    ]);
  });

  it('refuses a window longer than 90 days, dates in the wrong order and dates that do not exist', () => {
    expect(transactionFiltersOf({ from: '2026-01-01', to: '2026-11-01' }, [], today)).toMatchObject({
      filters: { from: '2026-08-03', to: '2026-11-01' },
      errors: [{ field: 'from', problem: 'range' }],
    });
    expect(transactionFiltersOf({ from: '2026-08-03', to: '2026-11-01' }, [], today).errors).toEqual([]);
    expect(transactionFiltersOf({ from: '2026-11-20', to: '2026-11-01' }, [], today).errors).toEqual([
      { field: 'from', problem: 'order' },
    ]);
    expect(transactionFiltersOf({ from: '2026-02-30' }, [], today).errors).toEqual([
      { field: 'from', problem: 'date' },
    ]);
  });

  it('writes the same names back, for the next page and the export', () => {
    const { filters } = transactionFiltersOf({ type: 'payment', q: 'a b', page: '2' }, [], today);
    expect(filterQuery(filters).toString()).toBe('type=payment&from=2026-10-29&to=2026-11-27&q=a+b');
    expect(filterQuery(filters, 3).get('page')).toBe('3');
  });
});

describe('the refund’s amount', () => {
  it('reads whole francs as people write them', () => {
    expect(centsOfFrancs('1500')).toBe(150_000);
    expect(centsOfFrancs('1 500')).toBe(150_000);
    expect(centsOfFrancs('1\u202f500 F')).toBe(150_000);
    expect(centsOfFrancs('1.500')).toBe(150_000);
  });

  it('refuses what is not whole francs', () => {
    for (const typed of ['', 'mille', '15,50', '-5', '1e3']) expect(centsOfFrancs(typed)).toBeUndefined();
  });
});
