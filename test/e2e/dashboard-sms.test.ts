import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import type { MemberRole } from '#shared/domain/dashboard-roles.ts';
import { type DashboardBrowser, newDashboardPhone, signUpOwner } from '#test/support/dashboard.ts';
import { admin } from '#test/support/local-host.ts';

/**
 * The dashboard's SMS page on the local host over real HTTP: the balance, a check step with the
 * text's segments, the send on the balance through the API's message operation (the text reaches
 * the phone, the list shows it with its status), and the refusals: an empty balance (nothing
 * written, nothing charged), a viewer, a forged post, bad fields.
 */
const { config, dataDir } = inject('localHost');
const baseUrl = config.baseUrl;

let table: {
  documentClient: typeof import('#shared/aws/dynamodb.ts')['documentClient'];
  tableName: string;
  commands: typeof import('@aws-sdk/lib-dynamodb');
};
beforeAll(async () => {
  useLocalAws(config.endpoints, config.tableName);
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  table = { documentClient, tableName: tableName(), commands: await import('@aws-sdk/lib-dynamodb') };
});

async function countOf(businessId: string, prefix: string) {
  const { Items = [] } = await table.documentClient.send(
    new table.commands.QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `BIZ#${businessId}`, ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  return Items.filter((item) => prefix !== 'AUDIT#' || item.action === 'sms_sent').length;
}

/** The messages, their reference claims and the `sms_sent` audit entries of the business. */
const writtenBy = async (businessId: string) => ({
  messages: await countOf(businessId, 'MSG#'),
  references: await countOf(businessId, 'MSGREF#'),
  audit: await countOf(businessId, 'AUDIT#'),
});

const creditSms = (businessId: string, segments: number) =>
  admin(dataDir, 'credit-sms', '--business', businessId, '--segments', String(segments));

/** A second person of the business with the given role, made in the table and signed in. */
async function memberOf(businessId: string, role: MemberRole) {
  const { createUser } = await import('#shared/data/user.ts');
  const { newMemberWrites } = await import('#shared/data/membership.ts');
  const { transactWrite } = await import('#shared/data/transact.ts');
  const { DashboardBrowser: Browser } = await import('#test/support/dashboard.ts');
  const phone = newDashboardPhone();
  const user = await createUser({ phone, firstName: 'Koffi', lastName: 'Yao' });
  await transactWrite(
    newMemberWrites(
      {
        id: crypto.randomUUID(),
        businessId,
        role,
        name: 'Koffi Yao',
        phone,
        userId: user.id,
        createdAt: new Date().toISOString(),
      },
      'Maquis Aïcha',
    ),
  );
  const browser = new Browser(baseUrl);
  expect((await browser.signInWith(phone)).location).toBe(`${baseUrl}/dashboard`);
  return browser;
}

async function send(browser: DashboardBrowser, form: Record<string, string>) {
  const csrf = await browser.csrfOf('/dashboard/sms');
  return browser.post('/dashboard/sms', { csrf, ...form });
}

/** The page until the message shows `status`, as a person reloading it would see. */
async function smsPageWhen(browser: DashboardBrowser, status: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = await browser.get('/dashboard/sms');
    if (page.text.includes(`data-status="${status}"`) || Date.now() > deadline) return page.text;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the SMS page', () => {
  it('shows the segments before sending, sends on the balance, and lists the message with its status', async () => {
    const owner = await signUpOwner(baseUrl);
    await creditSms(owner.businessId, 3);
    expect((await owner.browser.get('/dashboard/sms')).text).toContain('Solde : 3 SMS');

    const to = newDashboardPhone();
    const long = 'Votre commande est prete. '.repeat(7); // 182 GSM characters: two parts
    const check = await send(owner.browser, { to: `0${to.slice(5)}`, body: long });
    expect(check.status).toBe(200);
    expect(check.text).toContain('Coût : 2 SMS');
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 0, references: 0, audit: 0 });

    const sent = await send(owner.browser, {
      to: `0${to.slice(5)}`,
      body: 'Votre commande 42 est prête.',
      confirm: 'yes',
    });
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    expect(sent.location).toBe(`${baseUrl}/dashboard/sms`);
    const page = await smsPageWhen(owner.browser, 'delivered');
    expect(page).toContain('Solde : 2 SMS');
    expect(page).toContain('Votre commande 42 est prête.');
    expect(page).toContain('data-status="delivered"');
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 1, references: 1, audit: 1 });
    const inbox = await (await fetch(`${baseUrl}/__local/sms`)).text();
    expect(inbox).toContain(`data-number="${to}"`);
  });

  it('refuses with a clear message on an empty balance: nothing sent, nothing written', async () => {
    const owner = await signUpOwner(baseUrl);
    const form = { to: newDashboardPhone(), body: 'Bonjour' };
    const check = await send(owner.browser, form);
    expect(check.status).toBe(422);
    expect(check.text).toContain('Solde SMS insuffisant');
    expect(check.text).not.toContain('Envoyer le SMS');
    const forced = await send(owner.browser, { ...form, confirm: 'yes' });
    expect(forced.status).toBe(422);
    expect(forced.text).toContain('Rien n’a été envoyé ni débité');
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 0, references: 0, audit: 0 });
  });

  it('names each wrong field (400)', async () => {
    const owner = await signUpOwner(baseUrl);
    await creditSms(owner.businessId, 1);
    const badPhone = await send(owner.browser, { to: '12', body: 'Bonjour', confirm: 'yes' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.text).toContain('href="#to"');
    const noBody = await send(owner.browser, { to: newDashboardPhone(), body: '  ', confirm: 'yes' });
    expect(noBody.status).toBe(400);
    expect(noBody.text).toContain('href="#body"');
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 0, references: 0, audit: 0 });
  });

  it('lets a viewer see the page but not send (403), and refuses forged posts (403)', async () => {
    const owner = await signUpOwner(baseUrl);
    await creditSms(owner.businessId, 2);
    const form = { to: newDashboardPhone(), body: 'Bonjour', confirm: 'yes' };
    const viewer = await memberOf(owner.businessId, 'viewer');
    const seen = await viewer.get('/dashboard/sms');
    expect(seen.status).toBe(200);
    expect(seen.text).toContain('Solde : 2 SMS');
    expect(seen.text).not.toContain('name="body"');
    expect((await viewer.post('/dashboard/sms', { csrf: await viewer.csrfOf(), ...form })).status).toBe(403);

    const csrf = await owner.browser.csrfOf('/dashboard/sms');
    expect((await owner.browser.post('/dashboard/sms', form)).status).toBe(403);
    expect(
      (await owner.browser.post('/dashboard/sms', { csrf, ...form }, { origin: 'https://attacker.example' }))
        .status,
    ).toBe(403);
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 0, references: 0, audit: 0 });
    expect((await owner.browser.get('/dashboard/sms')).text).toContain('Solde : 2 SMS');
  });
});
