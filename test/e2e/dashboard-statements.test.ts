import { describe, expect, it } from 'vitest';
import { listStores } from '#shared/data/store.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { monthOf } from '#shared/domain/statement.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { apiClient } from '#test/support/api-client.ts';
import { parseCsv } from '#test/support/csv.ts';
import { backgroundWorkMs, DashboardBrowser, signUpOwner } from '#test/support/dashboard.ts';
import { memberOf, theLocalHost, verifiedOwner } from '#test/support/dashboard-setup.ts';
import { bookSmsPurchaseAndWithdrawal } from '#test/support/statement-movements.ts';

/**
 * The statement page over the local host: the month's opening, movements and closing as the page
 * and its CSV show them (the CSV as French Excel reads it: BOM, `;`, decimal comma), any member
 * who may read sees it, a month out of range is refused, and another business's store is not
 * found, on the page as on the file.
 */
const { baseUrl } = theLocalHost();

/** A store with test money, SMS bought and a withdrawal: 1,000,000 − 2,500 − 300,000 − 3,000. */
async function storeWithMovements(businessId: string) {
  const [store] = await listStores(businessId);
  if (!store) throw new Error('no store');
  await creditStore(store.id, 1_000_000);
  await bookSmsPurchaseAndWithdrawal(businessId, store.id);
  return store;
}

const closing = 1_000_000 - 2_500 - 300_000 - 3_000;

describe('the statement page', () => {
  it('shows opening + movements = closing, and the same figures in the CSV', async () => {
    const owner = await signUpOwner(baseUrl);
    const store = await storeWithMovements(owner.businessId);
    const page = await owner.browser.get(`/dashboard/statements?store=${store.id}&lang=fr`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-testid="statement-opening">${formatAmount(0)}`);
    expect(page.text).toContain(`data-testid="statement-closing">${formatAmount(closing)}`);
    expect(page.text).toContain('Retraits');
    expect(page.text).toContain('Achats de SMS');

    const file = await fetch(`${baseUrl}/dashboard/statements?store=${store.id}&format=csv&lang=fr`, {
      headers: { cookie: owner.browser.cookieHeader },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    expect(file.headers.get('content-disposition')).toContain(`releve-${monthOf(new Date())}`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { header, rows } = parseCsv(new TextDecoder().decode(bytes.subarray(3)), ';');
    expect(header).toEqual([
      'Date',
      'Libellé',
      'Nombre',
      'Entrées (F CFA)',
      'Sorties (F CFA)',
      'Frais (F CFA)',
      'Net (F CFA)',
      'Solde (F CFA)',
    ]);
    const withdrawal = rows.find((row) => row.Libellé === 'Retraits' && row.Date !== '');
    expect(withdrawal).toMatchObject({ Nombre: '1', 'Sorties (F CFA)': '-3000', 'Frais (F CFA)': '-30' });
    expect(rows.find((row) => row.Libellé === 'Solde de clôture')?.['Solde (F CFA)']).toBe(
      String(closing / 100),
    );

    // A viewer reads it too; the business's statement holds its one store's figures.
    const viewer = await memberOf(owner, 'viewer');
    const business = await viewer.get('/dashboard/statements?lang=en');
    expect(business.status).toBe(200);
    expect(business.text).toContain(`data-testid="statement-closing">${formatAmount(closing)}`);
    expect(business.text).toContain('Withdrawals');
  });

  it('refuses a month out of range (400), a session-less request (to the sign-in) and another business’s store (404)', async () => {
    const owner = await signUpOwner(baseUrl);
    const other = await signUpOwner(baseUrl);
    const otherStore = await storeWithMovements(other.businessId);

    expect((await owner.browser.get('/dashboard/statements?month=1999-01')).status).toBe(400);
    expect((await owner.browser.get('/dashboard/statements?month=junk')).status).toBe(400);
    for (const query of [`store=${otherStore.id}`, `store=${otherStore.id}&format=csv`]) {
      const answer = await owner.browser.get(`/dashboard/statements?${query}`);
      expect(answer.status).toBe(404);
      expect(answer.text).not.toContain(formatAmount(closing));
    }
    const anonymous = await new DashboardBrowser(baseUrl).get('/dashboard/statements');
    expect(anonymous.status).toBe(303);
  });

  it('shows a withdrawal and SMS credit bought through the API, once the withdrawal is paid out', async () => {
    const call = apiClient(baseUrl);
    const owner = await verifiedOwner(baseUrl, { key: 'platform', creditCents: 2_000_000 });
    const bought = await call('POST', '/partner_api/sms_credit_purchases', owner.headers, {
      storeId: owner.storeId,
      segments: 100,
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const added = await call('POST', '/partner_api/payout_accounts', owner.headers, {
      type: 'mobile_money',
      holder: 'Awa Diop',
      paymentMethod: 'wave',
      number: '+221771234567',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const account = added.body as { id: string; usableFrom: string };
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(account.usableFrom) - Date.now()) + 200),
    );
    const withdrawn = await call('POST', '/partner_api/withdrawals', owner.headers, {
      storeId: owner.storeId,
      payoutAccountId: account.id,
      amountCents: 500_000,
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);

    const statementCsv = async () => {
      const file = await fetch(`${baseUrl}/dashboard/statements?store=${owner.storeId}&format=csv&lang=en`, {
        headers: { cookie: owner.browser.cookieHeader },
      });
      return parseCsv((await file.text()).replace(/^\ufeff/, ''), ';').rows;
    };
    // The withdrawal is in the books (and the statement) once the provider has paid it out.
    await expect
      .poll(async () => (await statementCsv()).find((row) => row.Item === 'Withdrawals (total)')?.Count, {
        timeout: backgroundWorkMs,
      })
      .toBe('1');
    const rows = await statementCsv();
    expect(rows.find((row) => row.Item === 'Withdrawals (total)')).toMatchObject({ 'Out (F CFA)': '-5000' });
    expect(rows.find((row) => row.Item === 'SMS purchases (total)')).toMatchObject({
      Count: '1',
      'Out (F CFA)': '-2500',
    });
    const total = (await listStoreWallets(owner.businessId, owner.storeId)).reduce(
      (sum, wallet) => sum + wallet.total,
      0,
    );
    expect(rows.find((row) => row.Item === 'Closing balance')?.['Balance (F CFA)']).toBe(String(total / 100));
    expect(Number(rows.find((row) => row.Item === 'Total movements')?.['Net (F CFA)'])).toBe(total / 100);
  });
});
