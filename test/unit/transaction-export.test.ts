import { describe, expect, it } from 'vitest';
import type { Store } from '#shared/data/store.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import {
  defaultWindow,
  exportColumns,
  exportFiltersOf,
  exportHeader,
  exportRow,
  exportSeparatorOf,
  francs,
  matchesSearch,
  money,
  spreadsheetSafe,
  textCell,
} from '#shared/operations/transaction-export.ts';
import { parseCsv } from '#test/support/csv.ts';

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

  it('writes money with the decimal mark of the spreadsheet the separator is for', () => {
    expect(money(-150_050, 'semicolon')).toBe('-1500,50');
    expect(money(-150_050, 'comma')).toBe('-1500.50');
    expect(money(150_000, 'semicolon')).toBe('1500');
    expect(money(-0, 'semicolon')).toBe('0');
  });

  it('keeps numbers, phones and ids as text behind a tab, and a formula still disarmed first', () => {
    expect(textCell('+221770000001')).toBe('\t+221770000001');
    expect(textCell('000123')).toBe('\t000123');
    expect(textCell('-1500')).toBe('\t-1500');
    expect(textCell('1b4e28ba-2fa1-11d2-883f-0016d3cca427')).toBe('\t1b4e28ba-2fa1-11d2-883f-0016d3cca427');
    expect(textCell('bfe37c2f-5b1d-4c1e-9d7a-0d3e6a2f4b55')).toBe('bfe37c2f-5b1d-4c1e-9d7a-0d3e6a2f4b55');
    expect(textCell('Adjoua Kouassi')).toBe('Adjoua Kouassi');
    expect(textCell('=1+2')).toBe(`'=1+2`);
    expect(textCell('+cmd|x')).toBe(`'+cmd|x`);
    expect(textCell('\t=1+2')).toBe(`'\t=1+2`);
    expect(textCell(undefined)).toBe('');
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

describe('the export’s rows, for a person opening them in a spreadsheet', () => {
  const store: Store = {
    id: '5c1f3a52-93c4-4b3e-8d4e-2b7a1c9e0f11',
    businessId: 'b',
    name: 'Boutique Médina',
    currency: 'XOF',
    country: 'SN',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  const line = (over: Partial<TransactionRecord>): TransactionRecord => ({
    id: '0b7a2f1e-4c3d-4e5f-8a9b-1c2d3e4f5a6b',
    businessId: 'b',
    storeId: store.id,
    type: 'payment',
    status: 'success',
    amount: { amount: 1_500_000, currency: 'XOF' },
    fees: { amount: 15_000, currency: 'XOF' },
    currency: 'XOF',
    paymentMethod: 'wave',
    counterpartLabel: 'Aminata Diop',
    counterpartIdentifier: '+221770000001',
    description: 'Payment pl-0b7a2f1e',
    reference: 'pl-0b7a2f1e',
    createdAt: '2026-11-28T04:05:00.000Z',
    ...over,
  });
  const row = (values: string[]) =>
    Object.fromEntries(exportColumns.map((column, index) => [column, values[index]]));

  it('names its columns in the page’s language', () => {
    expect(exportHeader('fr').slice(0, 8)).toEqual([
      'Date (heure locale)',
      'Date (UTC)',
      'Type',
      'Statut',
      'Libellé',
      'Montant',
      'Frais',
      'Net',
    ]);
    expect(exportHeader('en').slice(0, 8)).toEqual([
      'Date (local time)',
      'Date (UTC)',
      'Type',
      'Status',
      'Description',
      'Amount',
      'Fees',
      'Net',
    ]);
    expect(exportHeader('fr')).toHaveLength(exportColumns.length);
  });

  it('writes a payment through a link in French: what was sold, money in, fees taken, the phone as text', () => {
    const written = row(
      exportRow(
        line({ transactionDetails: { id: 'r', paymentLinkId: 'l1' }, paymentRequestId: 'r' }),
        store,
        { language: 'fr', separator: 'semicolon' },
        'Thiéboudienne, 2 parts',
      ),
    );
    expect(written).toMatchObject({
      date: '2026-11-28 04:05:00',
      dateUtc: '2026-11-28 04:05:00',
      type: 'Paiement',
      status: 'Réussi',
      item: 'Thiéboudienne, 2 parts',
      amount: '15000',
      fees: '-150',
      net: '14850',
      currency: 'XOF',
      paymentMethod: 'Wave',
      counterpart: 'Aminata Diop',
      number: '\t+221770000001',
      store: 'Boutique Médina',
      paymentLinkId: 'l1',
    });
  });

  it('signs money out below zero: a refund, a transfer, SMS credit; the description where no link', () => {
    const format = { language: 'en', separator: 'comma' } as const;
    const refund = row(
      exportRow(
        line({ type: 'refund', amount: { amount: 500_050, currency: 'XOF' }, description: 'Refund' }),
        store,
        format,
      ),
    );
    expect(refund).toMatchObject({
      type: 'Refund',
      amount: '-5000.50',
      fees: '-150',
      net: '-5150.50',
      item: 'Refund',
    });
    const transfer = row(
      exportRow(line({ type: 'transfer', status: 'pending', paymentMethod: 'orange_money' }), store, format),
    );
    expect(transfer).toMatchObject({
      type: 'Transfer',
      status: 'Pending',
      amount: '-15000',
      paymentMethod: 'Orange Money',
    });
    expect(
      row(exportRow(line({ type: 'sms_credit', fees: { amount: 0, currency: 'XOF' } }), store, format)),
    ).toMatchObject({ amount: '-15000', fees: '0', net: '-15000' });
    expect(row(exportRow(line({ type: 'escrow', status: 'error' }), store, format))).toMatchObject({
      type: 'Escrow released',
      status: 'Failed',
      amount: '15000',
    });
    // Each end by its own word, as the dashboard's lines say it.
    const ended = (errorReason: string) =>
      row(
        exportRow(line({ status: 'error', errorReason }), store, { language: 'fr', separator: 'semicolon' }),
      ).status;
    expect(['expired', 'cancelled', 'declined', 'abandoned', 'insufficient_funds'].map(ended)).toEqual([
      'Expiré',
      'Annulé',
      'Refusé',
      'Abandonné',
      'Refusé',
    ]);
  });

  it('reads back in columns with `;`: a comma or a quote in a text stays in its cell', async () => {
    const { stringify } = await import('csv-stringify/sync');
    const text = stringify(
      [
        exportRow(line({ description: 'Boubou, « bazin » "riche"' }), store, {
          language: 'fr',
          separator: 'semicolon',
        }),
      ],
      {
        header: true,
        columns: exportHeader('fr'),
        delimiter: ';',
        record_delimiter: 'windows',
        quoted_match: /[\r\n\t]/,
      },
    );
    const { rows } = parseCsv(text, ';');
    expect(rows[0]?.Libellé).toBe('Boubou, « bazin » "riche"');
    expect(rows[0]?.Numéro).toBe('\t+221770000001');
    expect(rows[0]?.Montant).toBe('15000');
  });
});

describe('the export’s separator', () => {
  it('is `;` in French and `,` in English unless chosen, and nothing else', () => {
    expect(exportSeparatorOf(undefined, 'fr')).toBe('semicolon');
    expect(exportSeparatorOf('', 'en')).toBe('comma');
    expect(exportSeparatorOf('comma', 'fr')).toBe('comma');
    expect(exportSeparatorOf('semicolon', 'en')).toBe('semicolon');
    expect(exportSeparatorOf(';', 'fr')).toBeUndefined();
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
