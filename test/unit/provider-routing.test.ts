import { afterEach, describe, expect, it } from 'vitest';
import { productionRoutes } from '#infra/stage-config.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { adapterOfRoute, routedOnThisStage, routeProblems } from '#shared/providers/adapters.ts';
import { providerFor } from '#shared/providers/routing.ts';
import { sandboxProvider } from '#shared/providers/sandbox.ts';

const saved = { routes: process.env.PROVIDER_ROUTES, sandbox: process.env.SANDBOX };
const restore = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};
afterEach(() => {
  restore('PROVIDER_ROUTES', saved.routes);
  restore('SANDBOX', saved.sandbox);
});

describe('routing by payment method and country', () => {
  it("sends MTN of Côte d'Ivoire to its own adapter and MTN of Benin to pawaPay, as production does", () => {
    expect(adapterOfRoute(productionRoutes.mtn, 'CI')).toBe('mtn');
    expect(adapterOfRoute(productionRoutes.mtn, 'BJ')).toBe('pawapay');
    expect(adapterOfRoute(productionRoutes.mtn, undefined)).toBe('pawapay');
    expect(adapterOfRoute(productionRoutes.orange, 'ML')).toBe('pawapay');
    expect(adapterOfRoute(productionRoutes.wave, 'SN')).toBe('wave');
    expect(productionRoutes).not.toHaveProperty('djamo');
    // Production's default agrees with the payer pages' operator table, as a registry entry must.
    expect(routeProblems(productionRoutes)).toEqual([]);
  });

  it('reads the country off the number: a Beninese number routed to the sandbox, an Ivorian one not', () => {
    process.env.SANDBOX = 'false';
    process.env.PROVIDER_ROUTES = JSON.stringify({ mtn: { BJ: 'sandbox' } });
    expect(providerFor('mtn', { phone: '+2290196000789' })).toBe(sandboxProvider);
    expect(() => providerFor('mtn', { phone: '+2250500000101' })).toThrow(ProviderRefused);
    // Without a number, the store's country decides.
    expect(providerFor('mtn', { country: 'BJ' })).toBe(sandboxProvider);
  });

  it('refuses on production what no adapter serves (Djamo), and sends it to the sandbox elsewhere', () => {
    process.env.PROVIDER_ROUTES = JSON.stringify(productionRoutes);
    process.env.SANDBOX = 'false';
    expect(() => providerFor('djamo', { phone: '+2250700000001' })).toThrow(
      /No payment provider serves djamo/,
    );
    process.env.SANDBOX = 'true';
    expect(providerFor('djamo', { phone: '+2250700000001' })).toBe(sandboxProvider);
  });

  it('offers the payer pages only what is routed on production: no Djamo, no Orange where pawaPay is not routed', () => {
    process.env.SANDBOX = 'false';
    process.env.PROVIDER_ROUTES = JSON.stringify(productionRoutes);
    expect(routedOnThisStage('orange', 'ML')).toBe(true);
    expect(routedOnThisStage('mtn', 'BJ')).toBe(true);
    expect(routedOnThisStage('djamo', 'CI')).toBe(false);
    process.env.PROVIDER_ROUTES = JSON.stringify({ wave: 'wave', mtn: { CI: 'mtn' } });
    expect(routedOnThisStage('mtn', 'BJ')).toBe(false);
    process.env.SANDBOX = 'true';
    expect(routedOnThisStage('djamo', 'CI')).toBe(true);
    // No routes table at all: no deployed stage, a page rendered alone.
    delete process.env.SANDBOX;
    delete process.env.PROVIDER_ROUTES;
    expect(routedOnThisStage('djamo', 'CI')).toBe(true);
  });
});
