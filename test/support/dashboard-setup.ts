import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, expect, inject, vi } from 'vitest';
import type { DeviceProvisioning } from '#infra/admin-device.ts';
import { useLocalAws } from '#infra/local/local-config.ts';
import { getBusiness } from '#shared/data/business.ts';
import { raiseLevelWrite } from '#shared/data/compliance-verification.ts';
import { invitationLifetimeMs, invitationWrites } from '#shared/data/invitation.ts';
import { listMembers } from '#shared/data/member.ts';
import { platformBusinessId } from '#shared/data/message.ts';
import { queryAll } from '#shared/data/query.ts';
import { transactWrite } from '#shared/data/transact.ts';
import type { MemberRole } from '#shared/domain/dashboard-roles.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { apiClient, type Body } from '#test/support/api-client.ts';
import { phoneRack } from '#test/support/browser.ts';
import type { ListedTransaction } from '#test/support/csv.ts';
import {
  type Answer,
  backgroundWorkMs,
  DashboardBrowser,
  followed,
  newDashboardPhone,
  nextCodeOf,
  signInCodesOf,
  signUpOwner,
} from '#test/support/dashboard.ts';
import { admin } from '#test/support/local-host.ts';
import { paymentRequestBody } from '#test/support/paid-payments.ts';

/**
 * Where the dashboard's tests start from, made the way the service makes it: a business at the
 * first verification level (the identity check's own write), a member of a business (an invitation
 * accepted by the person's own sign-in), a key the API already lets in, and Chromium pages signed
 * in through the pages themselves or handed a session. The local table must be reachable before
 * any of it runs: a test file starts with `theLocalHost()`.
 */

/**
 * The local host the run started (its address, and its data folder for the admin command), with
 * its table reachable from the test file's own code as it is from the host's.
 */
export function theLocalHost() {
  const { config, dataDir } = inject('localHost');
  useLocalAws(config.endpoints, config.tableName);
  return { config, dataDir, baseUrl: config.baseUrl };
}

/** Every item of a business's partition whose sort key starts with `prefix`, read consistently. */
export function itemsOf(businessId: string, prefix: string): Promise<Body[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `BIZ#${businessId}`, ':prefix': prefix },
    ConsistentRead: true,
  });
}

/** The actions of the business's audit log, as stored. */
export const auditActionsOf = async (businessId: string): Promise<string[]> =>
  (await itemsOf(businessId, 'AUDIT#')).map((entry) => entry.action as string);

/**
 * The texts the service recorded for `phone` from its own number (sign-in codes, invitations). A
 * text is sent only once recorded, and it is recorded before the request that asks for it answers:
 * none recorded after that answer means none will ever reach the phone.
 */
export async function platformTextsRecordedFor(phone: string): Promise<Body[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: '#to = :phone',
    ExpressionAttributeNames: { '#to': 'to' },
    ExpressionAttributeValues: { ':pk': `BIZ#${platformBusinessId}`, ':prefix': 'MSG#', ':phone': phone },
    ConsistentRead: true,
  });
}

/**
 * What passing the identity check writes (shared/data/compliance-verification.ts): level 1, and API
 * access on. Pages read the business fresh; only the API's key check caches it (see
 * `untilTheApiLetsIn`).
 */
export async function verifyFirstLevel(businessId: string): Promise<void> {
  await transactWrite([raiseLevelWrite(businessId, 0, 1)]);
}

/** A new key of the business made with the admin command, as the API's headers. */
export async function apiKeyOf(
  dataDir: string,
  businessId: string,
  kind: 'merchant' | 'platform' = 'merchant',
): Promise<Record<string, string>> {
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId, '--kind', kind);
  return { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string, 'content-type': 'application/json' };
}

/** A key made on the API keys page, which shows it once: the page's answer, the key's id and secret. */
export async function createKeyOnDashboard(
  browser: DashboardBrowser,
  form: Record<string, string> = { name: 'Caisse', kind: 'merchant' },
) {
  const csrf = await browser.csrfOf('/dashboard/api-keys');
  // Post, then redirect: the keys page the 303 leads to shows the new key once.
  const answer = await followed(browser, await browser.post('/dashboard/api-keys', { csrf, ...form }));
  const keyId = /id="key-id" name="key-id" value="([^"]+)"/.exec(answer.text)?.[1] ?? '';
  const secret = /id="key-secret" name="key-secret" value="([^"]+)"/.exec(answer.text)?.[1] ?? '';
  return { answer, keyId, secret, headers: { 'X-API-KEY-ID': keyId, 'X-API-KEY': secret } };
}

/**
 * The business's stores through the API, once it lets the key in. The host's key check keeps a
 * business it read for AUTH_CACHE_TTL_SECONDS (2 s in tests), so a level or an access changed
 * since shows only when that copy expires: this asks again until it answers 200, however long a
 * busy machine makes that.
 */
export async function untilTheApiLetsIn(
  baseUrl: string,
  headers: Record<string, string>,
  timeoutMs = backgroundWorkMs,
): Promise<Body[]> {
  const call = apiClient(baseUrl);
  return vi.waitFor(
    async () => {
      const stores = await call('GET', '/partner_api/stores', headers);
      if (stores.status !== 200)
        throw new Error(`the API still refuses the business's key: ${stores.status}`);
      return stores.body as Body[];
    },
    { timeout: timeoutMs, interval: 250 },
  );
}

/** Every line the API's transaction list gives for `query`, page after page, as one list. */
export async function listedByTheApi(
  baseUrl: string,
  headers: Record<string, string>,
  query: string,
): Promise<ListedTransaction[]> {
  const items: ListedTransaction[] = [];
  let asOf = '';
  for (let page = 1; ; page++) {
    const response = await fetch(
      `${baseUrl}/partner_api/transactions?${query}&limit=100&page=${page}${asOf ? `&asOf=${asOf}` : ''}`,
      { headers },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: ListedTransaction[]; total: number; asOf: string };
    asOf = body.asOf;
    items.push(...body.data);
    if (items.length >= body.total || body.data.length === 0) return items;
  }
}

export interface VerifiedOwner {
  browser: DashboardBrowser;
  phone: string;
  businessId: string;
  /** A key of the business (a merchant key unless asked), as the API's headers. */
  headers: Record<string, string>;
  /** Its first store, the one the sign-up made. */
  storeId: string;
}

/**
 * An owner signed up on the dashboard whose business passed the first verification level, with a
 * key made on its API keys page that the API lets in and, when asked, some balance in its store
 * (refunds and transfers are paid out of it).
 */
export async function verifiedOwner(
  baseUrl: string,
  options: { key?: 'merchant' | 'platform'; creditCents?: number } = {},
): Promise<VerifiedOwner> {
  const owner = await signUpOwner(baseUrl);
  await verifyFirstLevel(owner.businessId);
  const key = await createKeyOnDashboard(owner.browser, { name: 'Caisse', kind: options.key ?? 'merchant' });
  if (key.answer.status !== 200) throw new Error(`no key made: ${key.answer.status}`);
  const headers = { ...key.headers, 'content-type': 'application/json' };
  const [store] = await untilTheApiLetsIn(baseUrl, headers);
  const storeId = store.id as string;
  // What `npm run admin -- credit` does, without a process of its own to start.
  if (options.creditCents) await creditStore(storeId, options.creditCents);
  return { ...owner, headers, storeId };
}

/**
 * A second person in the owner's business with `role`, signed in: the invitation the team page
 * writes (without its SMS), accepted by the person's own sign-in as the service accepts it.
 */
export async function memberOf(
  owner: { browser: DashboardBrowser; businessId: string },
  role: MemberRole,
): Promise<DashboardBrowser> {
  const [business, members] = await Promise.all([
    getBusiness(owner.businessId),
    listMembers(owner.businessId),
  ]);
  const phone = newDashboardPhone();
  const now = Date.now();
  await transactWrite(
    invitationWrites({
      businessId: owner.businessId,
      businessName: business?.name ?? '',
      phone,
      role,
      firstName: 'Koffi',
      lastName: 'Yao',
      invitedByMemberId: members.find((member) => member.role === 'owner')?.id ?? '',
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + invitationLifetimeMs).toISOString(),
    }),
  );
  const browser = new DashboardBrowser(owner.browser.baseUrl);
  const signedIn = await browser.signInWith(phone);
  if (signedIn.location !== `${browser.baseUrl}/dashboard`)
    throw new Error(`the ${role} was not signed in: ${signedIn.status} ${signedIn.location}`);
  return browser;
}

/**
 * A payment of the owner's store (whose key must be a platform key) paid in the sandbox and held in
 * escrow for 3 days: its escrow's and its payment request's ids.
 */
export async function heldEscrow(
  owner: VerifiedOwner,
  amountCents = 200_000,
): Promise<{ escrowId: string; paymentRequestId: string }> {
  const call = apiClient(owner.browser.baseUrl);
  const created = await call('POST', '/partner_api/payment_requests', owner.headers, {
    ...paymentRequestBody(owner.storeId, 'orange', amountCents),
    escrow: { holdDays: 3 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const approved = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, owner.headers, {
    payerPhone: '+2250700000001',
  });
  expect(approved.body.status).toBe('success');
  return { escrowId: created.body.escrowId as string, paymentRequestId: created.body.id as string };
}

/** A soundbox of the store, provisioned with the admin command as an installer does. */
export const provisionSoundbox = (dataDir: string, storeId: string) =>
  admin<DeviceProvisioning>(
    dataDir,
    'create-device',
    '--store',
    storeId,
    '--device-id',
    `Till-${randomUUID().slice(0, 8)}`,
  );

/**
 * A form sent back with `status`: the page again, its error summary leading to each field named
 * (`href="#<field>"`).
 */
export function expectErrorSummary(answer: Answer, status: number, ...fields: string[]): void {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  for (const field of fields) expect(answer.text, `no error for ${field}`).toContain(`href="#${field}"`);
}

// In Chromium.

export type Language = 'fr' | 'en';

const words = {
  fr: {
    phone: 'Numéro de téléphone',
    send: 'Recevoir un code',
    code: 'Code à 6 chiffres',
    go: 'Continuer',
    firstName: 'Votre prénom',
    lastName: 'Votre nom',
    businessName: 'Nom de l’entreprise',
    activity: 'Activité',
    storeName: 'Nom de votre premier point de vente',
    create: 'Créer mon entreprise',
  },
  en: {
    phone: 'Phone number',
    send: 'Get a code',
    code: '6-digit code',
    go: 'Continue',
    firstName: 'Your first name',
    lastName: 'Your last name',
    businessName: 'Business name',
    activity: 'Activity',
    storeName: 'Name of your first point of sale',
    create: 'Create my business',
  },
} as const;

/**
 * On the sign-in page as it is open: the phone typed, then the code its SMS brought. The page is
 * left where the code sends it (the home, the sign-up, the business to choose).
 */
export async function signInOnPage(page: Page, phone: string, language: Language = 'fr'): Promise<void> {
  const t = words[language];
  const baseUrl = new URL(page.url()).origin;
  const had = (await signInCodesOf(baseUrl, phone)).length;
  await page.getByLabel(t.phone).fill(phone);
  await page.getByRole('button', { name: t.send }).click();
  await page.waitForURL(/\/dashboard\/sign-in\/code/);
  await page.getByLabel(t.code).fill(await nextCodeOf(baseUrl, phone, had));
  await page.getByRole('button', { name: t.go }).click();
}

export interface SignUpForm {
  firstName: string;
  lastName: string;
  businessName: string;
  storeName: string;
}

/**
 * A new owner through the sign-in and sign-up pages in the page's language, ending on the home:
 * their phone and their business's id.
 */
export async function signUpOnPage(
  page: Page,
  baseUrl: string,
  language: Language,
  form: SignUpForm = {
    firstName: 'Awa',
    lastName: 'Koné',
    businessName: 'Boutique Awa',
    storeName: 'Cocody',
  },
): Promise<{ phone: string; businessId: string }> {
  const t = words[language];
  const phone = newDashboardPhone();
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await signInOnPage(page, phone, language);
  await page.waitForURL(`${baseUrl}/dashboard/sign-up`);
  await page.getByLabel(t.firstName).fill(form.firstName);
  await page.getByLabel(t.lastName).fill(form.lastName);
  await page.getByLabel(t.businessName).fill(form.businessName);
  await page.getByLabel(t.activity).selectOption('commerce.boutique');
  await page.getByLabel(t.storeName).fill(form.storeName);
  await page.getByRole('button', { name: t.create }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
  const businessId = (await page.getByTestId('business-name').getAttribute('data-business-id')) ?? '';
  return { phone, businessId };
}

/** The phones (each a Chromium profile of its own) this test file opens, all closed when it ends. */
export function phonesOfThisFile() {
  const phones = phoneRack();
  afterAll(phones.closeAll);
  return phones;
}

/** Hands a session signed in over HTTP to a Chromium page, which is then signed in as that person. */
export async function shareSession(page: Page, from: DashboardBrowser): Promise<void> {
  await page
    .context()
    .addCookies([...from.cookies].map(([name, value]) => ({ name, value, url: from.baseUrl })));
}

/** The elements whose right edge lies past `width`, each as the start of its HTML. */
export const elementsPast = (page: Page, width: number) =>
  page.evaluate<string[]>(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width}).map((e) => e.outerHTML.slice(0, 120))`,
  );

/**
 * No serious or critical accessibility violation on the page as it stands, and nothing wider than
 * the screen (no sideways scrolling); what sticks out is named when something does.
 */
export async function expectAccessibleWithin(page: Page, width: number): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
  const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
  if (scrollWidth > width)
    expect(scrollWidth, `wider than ${width}px: ${(await elementsPast(page, width)).join('\n')}`).toBe(width);
}

/** The control lies within the first screen as the page opens, without scrolling. */
export async function expectInFirstScreen(control: Locator, screenHeight: number): Promise<void> {
  const box = await control.boundingBox();
  expect(box, 'the control is not shown').not.toBeNull();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(screenHeight);
}
