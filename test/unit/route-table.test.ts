import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';
import * as routeTable from '#shared/routes.ts';
import { routeEntries } from '#shared/routes.ts';

/**
 * Every endpoint of the interface (spec §4 and the field contract), with whether it is built yet.
 * Building one means adding it to the route table and flipping it here, so the two cannot diverge.
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

const inTable = new Set(routeEntries.map(([, route]) => `${route.method} ${route.path}`));

describe('the route table', () => {
  it.each(interfaceEndpoints.filter((e) => e.built))(
    'has the built endpoint $method $path',
    ({ method, path }) => {
      expect(inTable.has(`${method} ${path}`)).toBe(true);
    },
  );

  it('has no interface endpoint that is not marked built here', () => {
    const unbuilt = interfaceEndpoints.filter((e) => !e.built).map((e) => `${e.method} ${e.path}`);
    expect(unbuilt.filter((endpoint) => inTable.has(endpoint))).toEqual([]);
  });

  it('lists each method and path once', () => {
    expect(inTable.size).toBe(routeEntries.length);
  });

  it('is made of its groups, each route in exactly one (a name in two would hide the first)', () => {
    const groups = Object.entries(routeTable).filter(([name]) => /^[a-z]\w*Routes$/.test(name));
    const grouped = groups.flatMap(([, group]) => Object.keys(group as object));
    expect(grouped.length).toBe(routeEntries.length);
    expect(new Set(grouped)).toEqual(new Set(routeEntries.map(([name]) => name)));
  });

  it.each(routeEntries)('points %s at an entry file that exports a handler', async (_name, route) => {
    const file = join(projectRoot, route.handler);
    expect(existsSync(file)).toBe(true);
    const module = await import(file);
    expect(typeof module.handler).toBe('function');
  });

  it('lets every keyed route read the table, which authentication needs', () => {
    for (const [name, route] of routeEntries) {
      if (route.caller === 'public') continue;
      const readsTable = route.access.includes('table:read') || route.access.includes('table:write');
      expect(readsTable, name).toBe(true);
    }
  });
});
