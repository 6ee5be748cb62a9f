import { describe, expect, it, vi } from 'vitest';
import { ibanOf } from '#shared/domain/payout-accounts.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { apiClient, platformKey } from '#test/support/api-client.ts';
import { parseCsv } from '#test/support/csv.ts';
import { backgroundWorkMs, formFields, nextCodeOf, signInCodesOf, textsOf } from '#test/support/dashboard.ts';
import {
  auditActionsOf,
  listedByTheApi,
  memberOf,
  theLocalHost,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';

/**
 * Withdrawals to the business's own accounts (issue 34, item 3) on the local host over real HTTP,
 * whose new accounts cool for 2 s (PAYOUT_ACCOUNT_COOLING_SECONDS): the owner adds an account with
 * the SMS code sent to their phone, every owner is told by SMS, a withdrawal waits for the cooling
 * period and then moves the money through the transfer path (the store's balance, the transaction
 * list). The same through the API; another business's account is not found; a key scoped to one
 * store may not add one; a viewer may not withdraw, an admin may not add an account.
 */
const { baseUrl, dataDir } = theLocalHost();
const call = apiClient(baseUrl);

const balanceOf = async (headers: Record<string, string>, storeId: string) =>
  ((await call('GET', `/partner_api/stores/${storeId}/balance`, headers)).body as { amount: number }).amount;

describe('withdrawals on the dashboard', () => {
  it('adds the owner’s account with an SMS code, waits for the cooling period, then withdraws', async () => {
    const owner = await verifiedOwner(baseUrl, { creditCents: 5_000_000 });
    const csrf = await owner.browser.csrfOf('/dashboard/withdrawals');
    const account = {
      csrf,
      action: 'check',
      kind: 'mobile',
      holder: 'Awa Diop',
      paymentMethod: 'wave',
      number: `0${owner.phone.slice(5)}`,
    };
    // A wrong number is named on its field, and nothing is sent.
    const wrong = await owner.browser.post('/dashboard/withdrawals/accounts', { ...account, number: '12' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('href="#number"');

    const had = (await signInCodesOf(baseUrl, owner.phone)).length;
    const check = await owner.browser.post('/dashboard/withdrawals/accounts', account);
    expect(check.status, check.text.slice(0, 400)).toBe(200);
    const code = await nextCodeOf(baseUrl, owner.phone, had);
    const confirm = formFields(check.text, '/withdrawals/accounts');
    const bad = await owner.browser.post('/dashboard/withdrawals/accounts', {
      ...confirm,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Ce code n’est pas le bon');
    const added = await owner.browser.post('/dashboard/withdrawals/accounts', { ...confirm, code });
    expect(added.status, added.text.slice(0, 400)).toBe(303);
    const notice = await textsOf(baseUrl, owner.phone, had + 2);
    expect(notice.some((text) => text.includes('un compte de retrait a été ajouté'))).toBe(true);
    expect(await auditActionsOf(owner.businessId)).toContain('payout_account_added');

    const page = await owner.browser.get(
      new URL(added.location ?? '').pathname + new URL(added.location ?? '').search,
    );
    expect(page.text).toContain('Compte ajouté');
    const payoutAccountId = /data-payout-account-id="([0-9a-f-]{36})"/.exec(page.text)?.[1] ?? '';
    expect(payoutAccountId).not.toBe('');

    // Still cooling: the withdrawal is refused on the account, nothing moves.
    const withdrawal = { csrf, storeId: owner.storeId, payoutAccountId, amount: '10 000' };
    const early = await owner.browser.post('/dashboard/withdrawals', withdrawal);
    // Unless this machine took longer than the cooling period to get here.
    if (early.status !== 200) {
      expect(early.status).toBe(400);
      expect(early.text).toContain('pourra recevoir des retraits');
      expect(early.text).toContain('href="#payoutAccountId"');
    }
    expect(await balanceOf(owner.headers, owner.storeId)).toBe(5_000_000);

    const checked = await vi.waitFor(
      async () => {
        const answer = await owner.browser.post('/dashboard/withdrawals', withdrawal);
        if (answer.status !== 200) throw new Error(`still cooling: ${answer.status}`);
        return answer;
      },
      { timeout: backgroundWorkMs, interval: 500 },
    );
    expect(checked.text).toContain('Vérifiez l’envoi');
    const sent = await owner.browser.post(
      '/dashboard/transfers/confirm',
      formFields(checked.text, '/transfers/confirm'),
    );
    expect(sent.status, sent.text.slice(0, 400)).toBe(303);
    expect(sent.location).toContain('/dashboard/withdrawals?sent=');
    expect(await auditActionsOf(owner.businessId)).toContain('withdrawal_made');
    // 10 000 F and its 1 % fee leave the store; the line settles through the sandbox's payout.
    expect(await balanceOf(owner.headers, owner.storeId)).toBe(5_000_000 - 1_010_000);
    await vi.waitFor(
      async () => {
        const lines = await listedByTheApi(baseUrl, owner.headers, `storeId=${owner.storeId}`);
        const line = lines.find((each) => each.type === 'transfer');
        expect(line).toMatchObject({
          status: 'success',
          amount: { amount: 1_000_000 },
          counterpartLabel: 'Awa Diop',
        });
      },
      { timeout: backgroundWorkMs, interval: 500 },
    );
    // The month's statement shows it as a withdrawal, and closes on the store's balance.
    const file = await fetch(`${baseUrl}/dashboard/statements?store=${owner.storeId}&format=csv&lang=fr`, {
      headers: { cookie: owner.browser.cookieHeader },
    });
    const { rows } = parseCsv((await file.text()).replace(/^\uFEFF/, ''), ';');
    expect(rows.find((row) => row.Libellé === 'Retraits' && row.Date !== '')).toMatchObject({
      Nombre: '1',
      'Sorties (F CFA)': '-10000',
      'Frais (F CFA)': '-100',
    });
    expect(rows.find((row) => row.Libellé === 'Solde de clôture')?.['Solde (F CFA)']).toBe(
      String((5_000_000 - 1_010_000) / 100),
    );

    // The owner removes it: a confirmation first, then gone, in the audit log.
    const remove = { csrf, action: 'remove', id: payoutAccountId };
    const asked = await owner.browser.post('/dashboard/withdrawals/accounts', remove);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Retirer ce compte ?');
    const removed = await owner.browser.post('/dashboard/withdrawals/accounts', {
      ...remove,
      confirm: 'yes',
    });
    expect(removed.status).toBe(303);
    expect((await owner.browser.get('/dashboard/withdrawals')).text).not.toContain(payoutAccountId);
    expect(await auditActionsOf(owner.businessId)).toContain('payout_account_removed');
  });

  it('lets only the owner add or remove an account, and a viewer withdraw nothing', async () => {
    const owner = await verifiedOwner(baseUrl, { creditCents: 1_000_000 });
    const admin = await memberOf(owner, 'admin');
    const viewer = await memberOf(owner, 'viewer');
    const adminCsrf = await admin.csrfOf('/dashboard');
    const refused = await admin.post('/dashboard/withdrawals/accounts', {
      csrf: adminCsrf,
      action: 'check',
      kind: 'mobile',
      holder: 'Quelqu’un',
      paymentMethod: 'wave',
      number: '+221771234567',
    });
    expect(refused.status).toBe(403);
    const viewerCsrf = await viewer.csrfOf('/dashboard');
    const viewed = await viewer.get('/dashboard/withdrawals');
    expect(viewed.status).toBe(200);
    expect(viewed.text).not.toContain('name="payoutAccountId"');
    // An account that is not the business's is not found, and nothing moves.
    const ownerCsrf = await owner.browser.csrfOf('/dashboard/withdrawals');
    const unknown = await owner.browser.post('/dashboard/withdrawals', {
      csrf: ownerCsrf,
      storeId: owner.storeId,
      payoutAccountId: crypto.randomUUID(),
      amount: '1 000',
    });
    expect(unknown.status).toBe(404);
    expect(await balanceOf(owner.headers, owner.storeId)).toBe(1_000_000);
    expect(
      (
        await viewer.post('/dashboard/withdrawals', {
          csrf: viewerCsrf,
          storeId: owner.storeId,
          payoutAccountId: crypto.randomUUID(),
          amount: '1 000',
        })
      ).status,
    ).toBe(403);
  });
});

describe('automatic settlement on the dashboard', () => {
  it('the owner sets it for this hour: the host’s hourly worker pays what is above the kept amount once, then it is turned off', async () => {
    const owner = await verifiedOwner(baseUrl, { key: 'platform', creditCents: 2_000_000 });
    const added = await call('POST', '/partner_api/payout_accounts', owner.headers, {
      type: 'mobile_money',
      holder: 'Awa Diop',
      paymentMethod: 'wave',
      number: '+221771234567',
    });
    expect(added.status).toBe(201);
    const account = added.body as { id: string };
    const csrf = await owner.browser.csrfOf('/dashboard/withdrawals');
    expect((await owner.browser.get('/dashboard/withdrawals')).text).toContain(
      'data-testid="automatic-form"',
    );

    const form = { csrf, action: 'save', storeId: owner.storeId, payoutAccountId: account.id };
    const wrong = await owner.browser.post('/dashboard/withdrawals/automatic', {
      ...form,
      hour: '24',
      keep: 'tout',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('href="#hour"');
    expect(wrong.text).toContain('href="#keep"');

    // 20 000 F available, 14 950 F kept: 5 000 F and its 1 % fee go, once (the account cools 2 s first).
    const set = await owner.browser.post('/dashboard/withdrawals/automatic', {
      ...form,
      hour: String(new Date().getUTCHours()),
      keep: '14 950',
    });
    expect(set.status, set.text.slice(0, 400)).toBe(303);
    expect(set.location).toContain('automatic=on');
    expect(await auditActionsOf(owner.businessId)).toContain('automatic_settlement_changed');
    await vi.waitFor(async () => expect(await balanceOf(owner.headers, owner.storeId)).toBe(1_495_000), {
      timeout: backgroundWorkMs,
      interval: 500,
    });
    const page = await owner.browser.get('/dashboard/withdrawals');
    expect(page.text).toContain(`data-store-id="${owner.storeId}" data-enabled="true"`);
    expect(page.text).toContain('en gardant 14');

    // Money that comes in later the same day stays: the store was settled today.
    await creditStore(owner.storeId, 300_000);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await balanceOf(owner.headers, owner.storeId)).toBe(1_795_000);

    const off = await owner.browser.post('/dashboard/withdrawals/automatic', {
      csrf,
      action: 'off',
      storeId: owner.storeId,
    });
    expect(off.status).toBe(303);
    expect(off.location).toContain('automatic=off');
    expect((await owner.browser.get('/dashboard/withdrawals')).text).toContain(
      `data-store-id="${owner.storeId}" data-enabled="false"`,
    );
  });

  it('lets only the owner set it, to the business’s own accounts', async () => {
    const owner = await verifiedOwner(baseUrl, { key: 'platform', creditCents: 1_000_000 });
    const other = await verifiedOwner(baseUrl, { key: 'platform' });
    const theirs = await call('POST', '/partner_api/payout_accounts', other.headers, {
      type: 'mobile_money',
      holder: 'Autre',
      paymentMethod: 'orange',
      number: '+2250700000044',
    });
    const mine = await call('POST', '/partner_api/payout_accounts', owner.headers, {
      type: 'mobile_money',
      holder: 'Awa Diop',
      paymentMethod: 'orange',
      number: '+2250700000045',
    });
    const hour = String((new Date().getUTCHours() + 12) % 24);
    const csrf = await owner.browser.csrfOf('/dashboard/withdrawals');
    const foreign = await owner.browser.post('/dashboard/withdrawals/automatic', {
      csrf,
      action: 'save',
      storeId: owner.storeId,
      payoutAccountId: (theirs.body as { id: string }).id,
      hour,
      keep: '',
    });
    expect(foreign.status).toBe(404);
    const body = {
      action: 'save',
      storeId: owner.storeId,
      payoutAccountId: (mine.body as { id: string }).id,
      hour,
      keep: '',
    };
    const admin = await memberOf(owner, 'admin');
    const refused = await admin.post('/dashboard/withdrawals/automatic', {
      csrf: await admin.csrfOf('/dashboard'),
      ...body,
    });
    expect(refused.status).toBe(403);
    const viewer = await memberOf(owner, 'viewer');
    const viewed = await viewer.get('/dashboard/withdrawals');
    expect(viewed.status).toBe(200);
    expect(viewed.text).toContain('id="automatic"');
    expect(viewed.text).not.toContain('data-testid="automatic-form"');
    expect(await auditActionsOf(owner.businessId)).not.toContain('automatic_settlement_changed');
  });
});

describe('withdrawals through the API', () => {
  it('registers an account that cools, then withdraws everything available to it, once per key', async () => {
    const owner = await verifiedOwner(baseUrl, { key: 'platform', creditCents: 2_000_000 });
    const iban = ibanOf('SN', 'SN0100152200012345678985');
    const bank = await call('POST', '/partner_api/payout_accounts', owner.headers, {
      type: 'bank',
      holder: 'Boutique Awa SARL',
      bankName: 'Ecobank Sénégal',
      iban: `${iban.slice(0, 4)} ${iban.slice(4)}`,
    });
    expect(bank.status, JSON.stringify(bank.body)).toBe(201);
    const mistyped = await call('POST', '/partner_api/payout_accounts', owner.headers, {
      type: 'bank',
      holder: 'Boutique Awa SARL',
      bankName: 'Ecobank Sénégal',
      iban: iban.replace(/.$/, (last) => String((Number(last) + 1) % 10)),
    });
    expect(mistyped.status).toBe(422);
    expect(JSON.stringify(mistyped.body)).toContain('"field":"iban"');

    const wave = await call('POST', '/partner_api/payout_accounts', owner.headers, {
      type: 'mobile_money',
      holder: 'Awa Diop',
      paymentMethod: 'wave',
      number: '+221771234567',
    });
    expect(wave.status).toBe(201);
    const account = wave.body as { id: string; usableFrom: string };
    expect(Date.parse(account.usableFrom)).toBeGreaterThan(Date.now() - 1_000);
    const again = await call('POST', '/partner_api/payout_accounts', owner.headers, {
      type: 'mobile_money',
      holder: 'Awa',
      paymentMethod: 'wave',
      number: '77 123 45 67',
    });
    // Read as Ivorian, that national number is another one; in international form it is the same.
    expect(again.status === 201 || again.status === 422).toBe(true);
    const listed = await call('GET', '/partner_api/payout_accounts', owner.headers);
    expect((listed.body as { id: string }[]).map((each) => each.id)).toContain(account.id);

    const headers = { ...owner.headers, 'Idempotency-Key': crypto.randomUUID() };
    const body = { storeId: owner.storeId, payoutAccountId: account.id };
    const early = await call('POST', '/partner_api/withdrawals', headers, body);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ id: 'payout_account_cooling' });
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(account.usableFrom) - Date.now()) + 200),
    );

    const made = await call('POST', '/partner_api/withdrawals', headers, body);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // Everything available: the largest whole-franc amount whose 1 % fee fits beside it.
    expect(made.body).toMatchObject({
      payoutAccountId: account.id,
      amount: { amount: 1_980_200 },
      fees: { amount: 19_800 },
      paymentMethod: 'wave',
      beneficiary: '+221771234567',
    });
    expect((await call('POST', '/partner_api/withdrawals', headers, body)).body).toEqual(made.body);
    expect(await balanceOf(owner.headers, owner.storeId)).toBe(0);
    const nothing = await call('POST', '/partner_api/withdrawals', owner.headers, body);
    expect(nothing.status).toBe(422);
    expect(nothing.body).toMatchObject({ id: 'nothing_to_withdraw' });
  });

  it('finds no other business’s account, and keeps a store-scoped key from adding one', async () => {
    const owner = await verifiedOwner(baseUrl, { key: 'platform', creditCents: 1_000_000 });
    const other = await verifiedOwner(baseUrl, { key: 'platform', creditCents: 1_000_000 });
    const theirs = await call('POST', '/partner_api/payout_accounts', other.headers, {
      type: 'mobile_money',
      holder: 'Autre',
      paymentMethod: 'orange',
      number: '+2250700000042',
    });
    expect(theirs.status).toBe(201);
    const id = (theirs.body as { id: string }).id;
    const withdraw = await call('POST', '/partner_api/withdrawals', owner.headers, {
      storeId: owner.storeId,
      payoutAccountId: id,
    });
    expect(withdraw.status).toBe(404);
    expect((await call('DELETE', `/partner_api/payout_accounts/${id}`, owner.headers)).status).toBe(404);
    const scoped = await platformKey(dataDir, other.businessId, other.storeId);
    const scopedHeaders = {
      'X-API-KEY-ID': scoped.keyId,
      'X-API-KEY': scoped.key,
      'content-type': 'application/json',
    };
    const scopedAdd = await call('POST', '/partner_api/payout_accounts', scopedHeaders, {
      type: 'mobile_money',
      holder: 'Caisse',
      paymentMethod: 'orange',
      number: '+2250700000043',
    });
    expect(scopedAdd.status).toBe(403);
    expect((await call('DELETE', `/partner_api/payout_accounts/${id}`, scopedHeaders)).status).toBe(403);
    expect((await call('DELETE', `/partner_api/payout_accounts/${id}`, other.headers)).status).toBe(200);
    // Removed by a key, as added by one: in the owners' audit log, with the key named.
    expect(await auditActionsOf(other.businessId)).toEqual(
      expect.arrayContaining(['payout_account_added', 'payout_account_removed']),
    );
    expect(await balanceOf(other.headers, other.storeId)).toBe(1_000_000);
  });
});
