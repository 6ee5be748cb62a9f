import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { listStores } from '#shared/data/store.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import {
  cellText,
  exportHeaders,
  listedForComparison,
  parseCsv,
  rowAsListed,
  signedAmount,
} from '#test/support/csv.ts';
import { type DashboardBrowser, signUpOwner } from '#test/support/dashboard.ts';
import {
  createKeyOnDashboard,
  expectErrorSummary,
  listedByTheApi,
  memberOf,
  theLocalHost,
  untilTheApiLetsIn,
  verifyFirstLevel,
} from '#test/support/dashboard-setup.ts';
import { writeTransactionHistory } from '#test/support/transaction-history.ts';

/**
 * The dashboard's CSV export over the local host, streamed as on AWS: the file of a window holds
 * the very rows the API lists for it (ids, amounts, statuses, order), as UTF-8 with a BOM, quoted
 * as RFC 4180 says, written for a spreadsheet in the page's language (`;` and French headers by
 * default in French, `,` on request; money out signed negative; phones kept as text); finance may
 * export, a viewer may not; a window over 90 days or over 100,000
 * rows is refused before any byte of a file; another business's store is not found.
 */
const { baseUrl } = theLocalHost();
const dayMs = 24 * 60 * 60 * 1000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

const tricky = 'Café « Chez Aïcha », 2e étage\n"Table 4", reçu n°7';

/** A business's history: `count` lines over the days before today, and two before the window. */
function historyOf(businessId: string, storeId: string, count: number): TransactionRecord[] {
  const now = Date.now();
  const kinds = ['payment', 'payment', 'refund', 'transfer', 'escrow'] as const;
  const statuses = ['success', 'success', 'pending', 'error'] as const;
  const line = (i: number, createdAt: string): TransactionRecord => ({
    id: randomUUID(),
    businessId,
    storeId,
    type: kinds[i % kinds.length] as TransactionRecord['type'],
    status: statuses[i % statuses.length] as TransactionRecord['status'],
    amount: { amount: i % 3 === 0 ? 150_025 : 150_000 + i * 100, currency: 'XOF' },
    fees: { amount: 1_500, currency: 'XOF' },
    currency: 'XOF',
    paymentMethod: i % 2 === 0 ? 'wave' : 'orange_money',
    counterpartLabel: i % 4 === 0 ? 'Élodie Koné' : 'Client Sandbox',
    counterpartIdentifier: `+22507000000${String(i).padStart(2, '0')}`,
    description: i === 1 ? tricky : i === 2 ? '=HYPERLINK("http://example.com")' : `Paiement commande-${i}`,
    reference: `commande-${i}`,
    createdAt,
    transactionDetails: { id: randomUUID(), reference: `commande-${i}` },
    ...(i % kinds.length === 2 ? { refundId: randomUUID(), paymentRequestId: randomUUID() } : {}),
  });
  return [
    ...Array.from({ length: count }, (_, i) =>
      line(i, new Date(now - dayMs - Math.floor((i * 9 * dayMs) / count)).toISOString()),
    ),
    line(count, new Date(now - 40 * dayMs).toISOString()),
    line(count + 1, new Date(now - 41 * dayMs).toISOString()),
  ];
}

/** The file as the browser gets it, bytes and all (a `text()` would take the BOM off). */
async function download(browser: DashboardBrowser, query: string) {
  const response = await fetch(`${baseUrl}/dashboard/transactions/export?download=1&${query}`, {
    headers: { cookie: browser.cookieHeader },
    redirect: 'manual',
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
}

describe('the CSV export of the transactions', () => {
  it('streams the rows the API lists for the window, as RFC 4180 UTF-8 with a BOM, and records it', async () => {
    const owner = await signUpOwner(baseUrl);
    const [store] = await listStores(owner.businessId);
    if (!store) throw new Error('no store');
    await writeTransactionHistory(historyOf(owner.businessId, store.id, 230));
    const key = await createKeyOnDashboard(owner.browser, { name: 'Export', kind: 'merchant' });
    await verifyFirstLevel(owner.businessId);
    await untilTheApiLetsIn(baseUrl, key.headers);

    const from = dayOf(Date.now() - 30 * dayMs);
    const to = dayOf(Date.now());
    const listed = await listedByTheApi(baseUrl, key.headers, `startDate=${from}&endDate=${to}`);
    expect(listed).toHaveLength(230);

    const { response, bytes, text } = await download(owner.browser, `from=${from}&to=${to}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="transactions-${from}-${to}.csv"`,
    );
    // Streamed: sent in chunks as it is made, its length unknown when the headers left.
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // In French by default: `;` between fields, French headers.
    expect(text.slice(1, text.indexOf('\r\n'))).toBe(Object.values(exportHeaders.fr).join(';'));
    const { rows } = parseCsv(text.slice(1), ';');
    const fr = exportHeaders.fr;
    // Row for row, in the same order: the same ids, amounts, statuses and every other field.
    expect(rows.map((row) => rowAsListed(row, 'fr', ';'))).toEqual(listed.map(listedForComparison));
    // Money in above zero, money out below, a decimal comma; fees taken, the net beside them.
    for (const row of rows) {
      const out = ['Remboursement', 'Transfert'].includes(row[fr.type] ?? '');
      expect(Math.sign(signedAmount(row, 'fr', ';'))).toBe(out ? -1 : 1);
    }
    const whole = rows.find((row) => row[fr.amount] === '1501');
    expect(whole).toMatchObject({ [fr.type]: 'Paiement', [fr.fees]: '-15', [fr.net]: '1486' });
    expect(rows.some((row) => row[fr.amount] === '1500,25' && row[fr.type] === 'Paiement')).toBe(true);
    expect(rows.some((row) => row[fr.amount] === '-1500,25' && row[fr.type] === 'Transfert')).toBe(true);
    const refund = rows.find((row) => row[fr.type] === 'Remboursement');
    expect(refund?.[fr.amount]).toMatch(/^-\d/);
    expect(rows.find((row) => row[fr.type] === 'Transfert')?.[fr.amount]).toMatch(/^-\d/);
    // A phone stays a phone: written after a tab, so a spreadsheet keeps it as text.
    expect(rows[0]?.[fr.number]).toMatch(/^\t\+22507000000\d\d$/);
    // Accents, a comma, quotes and a line break survive in their column; a formula is disarmed.
    expect(rows.some((row) => row[fr.item] === tricky)).toBe(true);
    expect(text).toContain('"Café « Chez Aïcha », 2e étage\n""Table 4"", reçu n°7"');
    expect(rows.some((row) => row[fr.item] === `'=HYPERLINK("http://example.com")`)).toBe(true);
    expect(rows.every((row) => row[fr.store] === 'Yopougon')).toBe(true);

    // The other separator on request, the page's language kept: `,` and a decimal point.
    const commas = await download(owner.browser, `from=${from}&to=${to}&separator=comma&lang=en`);
    expect([...commas.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const english = parseCsv(commas.text.slice(1), ',');
    expect(english.header).toEqual(Object.values(exportHeaders.en));
    expect(english.rows.map((row) => rowAsListed(row, 'en', ','))).toEqual(listed.map(listedForComparison));
    expect(english.rows.some((row) => row[exportHeaders.en.amount] === '1500.25')).toBe(true);
    const semicolonsInEnglish = parseCsv(
      (await download(owner.browser, `from=${from}&to=${to}&separator=semicolon&lang=en`)).text.slice(1),
      ';',
    );
    expect(semicolonsInEnglish.header[0]).toBe(exportHeaders.en.date);

    // The list's filters apply to the file as to the list.
    const refunds = parseCsv(
      (await download(owner.browser, `from=${from}&to=${to}&type=refund&status=success`)).text.slice(1),
      ';',
    );
    expect(refunds.rows.length).toBeGreaterThan(0);
    expect(refunds.rows.every((row) => row[fr.type] === 'Remboursement' && row[fr.status] === 'Réussi')).toBe(
      true,
    );
    expect(refunds.rows.map((row) => cellText(row[fr.id]))).toEqual(
      listed.filter((item) => item.type === 'refund' && item.status === 'success').map((item) => item.id),
    );
    const searched = parseCsv(
      (await download(owner.browser, `from=${from}&to=${to}&q=commande-17`)).text.slice(1),
      ';',
    );
    // Part of a reference, in the list's order.
    expect(searched.rows.map((row) => cellText(row[fr.reference]))).toEqual(
      listed.filter((item) => item.reference.includes('commande-17')).map((item) => item.reference),
    );
    expect(searched.rows).toHaveLength(11);
    const byStore = parseCsv(
      (await download(owner.browser, `from=${from}&to=${to}&store=${store.id}`)).text.slice(1),
      ';',
    );
    expect(byStore.rows).toHaveLength(230);

    // Every export is in the audit log, with its window and the rows sent.
    const audit = await owner.browser.get('/dashboard/audit?action=transactions_exported');
    expect(audit.text).toContain('Transactions exportées (CSV)');
    expect(audit.text).toContain(`${from}..${to}: 230 rows`);
    // Seven files of 230 rows and the API's three pages, on a machine loaded by other runs.
  }, 180_000);

  it('shows the form without download, and refuses a window over 90 days or a filter out of its list with a 400 page', async () => {
    const owner = await signUpOwner(baseUrl);
    const form = await owner.browser.get('/dashboard/transactions/export');
    expect(form.status).toBe(200);
    expect(form.headers.get('content-type')).toContain('text/html');
    expect(form.text).toContain('name="download" value="1"');
    expect(form.text).toContain(`value="${dayOf(Date.now())}"`);

    const tooLong = await owner.browser.get(
      '/dashboard/transactions/export?download=1&from=2026-01-01&to=2026-04-15',
    );
    expectErrorSummary(tooLong, 400, 'to');
    expect(tooLong.headers.get('content-type')).toContain('text/html');
    expect(tooLong.text).toContain('La période dépasse 90 jours');
    const badDay = await owner.browser.get('/dashboard/transactions/export?download=1&from=2026-02-30');
    expect(badDay.status).toBe(400);
    const badType = await owner.browser.get('/dashboard/transactions/export?download=1&type=gift&lang=en');
    expect(badType.status).toBe(400);
    expect(badType.text).toContain('There is no such kind of transaction.');
    const badSeparator = await owner.browser.get('/dashboard/transactions/export?download=1&separator=tab');
    expect(badSeparator.status).toBe(400);
    expect(badSeparator.headers.get('content-type')).toContain('text/html');
    // The form offers both separators, `;` chosen in French, `,` in English.
    expect(form.text).toMatch(
      /<input type="radio" id="separator" name="separator" value="semicolon" checked>/,
    );
    const englishForm = await owner.browser.get('/dashboard/transactions/export?lang=en');
    expect(englishForm.text).toMatch(/name="separator" value="comma" checked>/);
    expect(englishForm.text).not.toMatch(/value="semicolon" checked>/);
  });

  it('refuses a window of more than 100,000 rows before any byte of a file, counted from the day counters', async () => {
    const owner = await signUpOwner(baseUrl);
    const [store] = await listStores(owner.businessId);
    const day = dayOf(Date.now() - dayMs);
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `TXCOUNT#${store?.id}`, sk: day },
        UpdateExpression: 'SET #count = :count',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':count': 100_001 },
      }),
    );
    const refused = await owner.browser.get(
      `/dashboard/transactions/export?download=1&from=${day}&to=${day}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(refused.text).toContain('Cette période compte 100 001 transactions');
  });

  it('lets finance export, refuses a viewer (403), a session-less request (to the sign-in) and another business’s store (404)', async () => {
    const owner = await signUpOwner(baseUrl);
    const other = await signUpOwner(baseUrl);
    const [otherStore] = await listStores(other.businessId);
    await writeTransactionHistory(historyOf(other.businessId, otherStore?.id ?? '', 3));

    const finance = await memberOf(owner, 'finance');
    const financeFile = await download(finance, '');
    expect(financeFile.response.status).toBe(200);
    expect(parseCsv(financeFile.text.slice(1), ';').rows).toHaveLength(0);

    const viewer = await memberOf(owner, 'viewer');
    expect((await download(viewer, '')).response.status).toBe(403);
    expect((await viewer.get('/dashboard/transactions/export')).status).toBe(403);

    const anonymous = await fetch(`${baseUrl}/dashboard/transactions/export?download=1`, {
      redirect: 'manual',
    });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`${baseUrl}/dashboard/sign-in`);

    const foreign = await download(owner.browser, `store=${otherStore?.id}`);
    expect(foreign.response.status).toBe(404);
    expect(foreign.text).not.toContain('commande-');
    expect((await owner.browser.get(`/dashboard/transactions/export?store=${otherStore?.id}`)).status).toBe(
      404,
    );
  });
});
