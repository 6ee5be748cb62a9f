import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import type { PageEndpoint } from '#shared/api/endpoint.ts';

// A dashboard page reads its form through its declaration and declares the permission it needs,
// as an API endpoint declares its caller: the wrapper (`dashboardPage`) parses the one and asks the
// other before the page runs, so neither can be forgotten inside an entry.

const isDashboardPath = (path: string) => path === '/dashboard' || path.startsWith('/dashboard/');

const dashboardPages = endpointEntries.filter(
  (entry): entry is [(typeof entry)[0], PageEndpoint] => 'page' in entry[1] && isDashboardPath(entry[1].path),
);

/** Pages of a person rather than of a business: signing in or up, choosing a business, signing out. */
const personPages = new Set([
  'signInPage',
  'submitSignInPage',
  'signInCodePage',
  'submitSignInCodePage',
  'signUpPage',
  'submitSignUpPage',
  'signOut',
  'signOutEverywhere',
  'businessesPage',
  'chooseBusiness',
]);

const source = (file: string) => readFileSync(file, 'utf8');

/** Every entry under functions/dashboard/, and the dashboard's pages kept in other folders. */
const dashboardEntryFiles = [
  ...new Set([
    ...readdirSync('functions/dashboard')
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `functions/dashboard/${name}`),
    ...dashboardPages.map(([, page]) => page.entry),
  ]),
].sort();

describe('dashboard pages', () => {
  it('finds the dashboard’s pages and entries (a filter that matched nothing would prove nothing)', () => {
    expect(dashboardPages.length).toBeGreaterThan(60);
    expect(dashboardEntryFiles).toContain('functions/withdrawals/payout-account-page.ts');
    expect(dashboardEntryFiles).toContain('functions/dashboard/invite-member.ts');
  });

  it.each(dashboardEntryFiles)('%s reads its form as declared fields, never request.form', (file) => {
    expect(source(file)).not.toMatch(/\brequest\.form\b/);
  });

  it.each(dashboardEntryFiles)('%s asks no permission itself: its declaration does', (file) => {
    expect(source(file)).not.toMatch(/\brequireAction\b/);
  });

  it('leaves no way for an operation or a page to ask a permission from a session', () => {
    const dirs = ['shared/operations', 'shared/pages', 'shared/http'];
    const asking = dirs.flatMap((dir) =>
      readdirSync(dir)
        .filter((name) => name.endsWith('.ts') && /\brequireAction\(/.test(source(`${dir}/${name}`)))
        .map((name) => `${dir}/${name}`),
    );
    expect(asking).toEqual([]);
  });

  it.each(dashboardPages.filter(([name]) => !personPages.has(name)))(
    '%s, a page of a business, declares its permission and runs through the member wrapper',
    (_name, page) => {
      expect(page.permission).toBeDefined();
      expect(source(page.entry)).toMatch(/\b(dashboardPage|withMember)\(/);
    },
  );

  it.each(dashboardPages.filter(([name]) => personPages.has(name)))(
    '%s, a page of the person, needs no role',
    (_name, page) => {
      expect(page.permission).toBeUndefined();
    },
  );

  it.each(dashboardPages.filter(([, page]) => page.form !== undefined))(
    '%s declares its form as an object of fields the wrapper can parse one by one',
    (_name, page) => {
      const def = page.form?._zod.def as { type: string; shape?: object };
      expect(def.type).toBe('object');
      expect(Object.keys(def.shape ?? {}).length).toBeGreaterThan(0);
      // Its entry hands the declaration itself to the wrapper, which parses the form with it.
      expect(source(page.entry)).toMatch(/Endpoints\.\w+|endpoints\.\w+/);
    },
  );
});
