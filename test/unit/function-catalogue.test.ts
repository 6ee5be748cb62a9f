import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';
import { type EndpointName, endpointEntries, endpoints } from '#shared/api/all-endpoints.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';

/**
 * Every endpoint of the interface (spec §4 and the field contract), with whether it is built yet.
 * Building one means declaring it in its capability's module and flipping it here, so the two
 * cannot diverge.
 */
const interfaceEndpoints: { method: string; path: string; built: boolean }[] = [
  { method: 'GET', path: '/partner_api/stores', built: true },
  { method: 'GET', path: '/partner_api/devices', built: true },
  { method: 'GET', path: '/partner_api/stores/{storeId}/balance', built: true },
  { method: 'POST', path: '/partner_api/payment_requests', built: true },
  { method: 'GET', path: '/partner_api/payment_requests/{id}', built: true },
  { method: 'POST', path: '/partner_api/payment_links', built: true },
  { method: 'GET', path: '/partner_api/payment_links/{id}', built: true },
  { method: 'GET', path: '/partner_api/transactions', built: true },
  { method: 'POST', path: '/partner_api/transfers', built: true },
  { method: 'GET', path: '/partner_api/transfers/{id}', built: true },
  { method: 'GET', path: '/partner_api/contacts', built: true },
  { method: 'POST', path: '/partner_api/contacts', built: true },
  { method: 'DELETE', path: '/partner_api/contacts/{id}', built: true },
  { method: 'GET', path: '/partner_api/escrows', built: true },
  { method: 'POST', path: '/partner_api/escrows/{id}/release', built: true },
  { method: 'POST', path: '/partner_api/messages', built: true },
  { method: 'GET', path: '/partner_api/messages/account', built: true },
  { method: 'POST', path: '/partner_api/service_providers/business_api_keys', built: true },
  { method: 'POST', path: '/partner_api/service_providers/business_link_requests', built: true },
  { method: 'GET', path: '/partner_api/service_providers/business_link_requests/{id}', built: true },
  { method: 'GET', path: '/partner_api/service_providers/business_links', built: true },
  {
    method: 'DELETE',
    path: '/partner_api/service_providers/business_links/{merchantBusinessId}',
    built: true,
  },
  { method: 'POST', path: '/partner_api/service_providers/compliance_verifications', built: true },
  { method: 'GET', path: '/partner_api/service_providers/business_webhook_subscriptions', built: true },
  { method: 'POST', path: '/partner_api/service_providers/business_webhook_subscriptions', built: true },
  {
    method: 'DELETE',
    path: '/partner_api/service_providers/business_webhook_subscriptions/{subscriptionId}',
    built: true,
  },
  { method: 'POST', path: '/partner_api/service_providers/business_onboarding', built: true },
  { method: 'GET', path: '/partner_api/service_providers/activities', built: true },
];

const declared = new Set(endpointEntries.map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`));

/** Every module of `shared/api/` with the endpoint groups it exports (`endpointsIn(...)`). */
async function endpointGroups(): Promise<[string, Record<string, { entry?: string; method?: string }>][]> {
  const folder = join(projectRoot, 'shared/api');
  const groups: [string, Record<string, { entry?: string; method?: string }>][] = [];
  const capabilityModules = readdirSync(folder).filter(
    (name) => name.endsWith('.ts') && name !== 'all-endpoints.ts',
  );
  for (const file of capabilityModules) {
    const module: Record<string, unknown> = await import(pathToFileURL(join(folder, file)).href);
    for (const [exported, value] of Object.entries(module)) {
      const members = value && typeof value === 'object' ? Object.values(value) : [];
      const isGroup =
        members.length > 0 &&
        members.every(
          (member) => member && typeof member === 'object' && 'entry' in member && 'method' in member,
        );
      if (isGroup) groups.push([`${file}: ${exported}`, value as Record<string, { entry?: string }>]);
    }
  }
  return groups;
}

/** Every entry file under `functions/`, relative to the project root. */
const entryFiles = () =>
  readdirSync(join(projectRoot, 'functions'), { withFileTypes: true })
    .filter((folder) => folder.isDirectory())
    .flatMap((folder) =>
      readdirSync(join(projectRoot, 'functions', folder.name))
        .filter((file) => file.endsWith('.ts'))
        .map((file) => `functions/${folder.name}/${file}`),
    );

describe('the endpoints', () => {
  it.each(interfaceEndpoints.filter((e) => e.built))(
    'include the built endpoint $method $path',
    ({ method, path }) => {
      expect(declared.has(`${method} ${path}`)).toBe(true);
    },
  );

  it('include no interface endpoint that is not marked built here', () => {
    const unbuilt = interfaceEndpoints.filter((e) => !e.built).map((e) => `${e.method} ${e.path}`);
    expect(unbuilt.filter((endpoint) => declared.has(endpoint))).toEqual([]);
  });

  it('declare each method and path once', () => {
    expect(declared.size).toBe(endpointEntries.length);
  });

  it('are every group of every capability module, each name once (a name in two would hide the first)', async () => {
    const groups = await endpointGroups();
    const grouped = groups.flatMap(([, group]) => Object.keys(group));
    const listed = new Set(endpointEntries.map(([name]) => name as string));
    const missing = groups.filter(([, group]) => Object.keys(group).some((name) => !listed.has(name)));
    expect(
      missing.map(([where]) => where),
      'a capability module whose endpoints are not spread into shared/api/all-endpoints.ts',
    ).toEqual([]);
    expect(grouped.length).toBe(endpointEntries.length);
  });

  it.each(endpointEntries)(
    '%s has an entry file whose handler serves that very endpoint',
    async (name, endpoint) => {
      const file = join(projectRoot, endpoint.entry);
      expect(existsSync(file), `${name}: write ${endpoint.entry}, exporting its handler`).toBe(true);
      const module = await import(pathToFileURL(file).href);
      expect(typeof module.handler).toBe('function');
      // A JSON endpoint's handler holds its declaration; a page or a document names it.
      const served = module.handler.endpoint ?? endpoints[module.handler.endpointName as EndpointName];
      expect(served, `${endpoint.entry} wraps another endpoint than ${name}`).toBe(endpoint);
    },
  );

  it('let every keyed endpoint read the table, which authentication needs', () => {
    for (const [name, endpoint] of endpointEntries) {
      if (endpoint.caller === 'public') continue;
      // The key is found by its id: one GetItem.
      expect(endpoint.access.includes('table:GetItem'), name).toBe(true);
    }
  });
});

describe('the function catalogue', () => {
  it.each(functionEntries)('%s has an entry file that exports a handler', async (_name, fn) => {
    const file = join(projectRoot, fn.entry);
    expect(existsSync(file), fn.entry).toBe(true);
    const module = await import(pathToFileURL(file).href);
    expect(typeof module.handler).toBe('function');
  });

  it('leaves no file under functions/ without a declaration (its function would never be deployed)', () => {
    const declaredEntries = new Set(functionEntries.map(([, fn]) => fn.entry));
    expect(entryFiles().filter((file) => !declaredEntries.has(file))).toEqual([]);
  });

  it('names each function once, whatever starts it (its name is its function name on a stage)', () => {
    const names = functionEntries.map(([name]) => name);
    expect(names.length).toBe(new Set(names).size);
  });
});
