import { providerCountries, providerServes } from '#shared/domain/operator-countries.ts';
import { isProviderCode } from '#shared/domain/payment-methods.ts';
import { type UemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';
import { pawapayProviderOf } from '#shared/providers/pawapay-providers.ts';

/** The adapters a stage can route a payment method to; data only, so the stack can import it. */
export const adapterNames = ['wave', 'mtn', 'pawapay', 'sandbox'] as const;
export type AdapterName = (typeof adapterNames)[number];

/**
 * Where a payment method goes on a stage: one adapter for every country, or one per country of
 * the payer (or beneficiary) with `*` for the others (`{"CI": "mtn", "*": "pawapay"}`).
 */
export type MethodRoute = AdapterName | Partial<Record<UemoaCountry | '*', AdapterName>>;

/** Every adapter a route names, in any country. */
export const adaptersOfRoute = (route: MethodRoute | undefined): AdapterName[] =>
  route === undefined
    ? []
    : typeof route === 'string'
      ? [route]
      : Object.values(route).filter((adapter) => adapter !== undefined);

let parsedRoutes: { raw: string | undefined; routes: Partial<Record<string, MethodRoute>> } | undefined;

/**
 * The stage's routing, payment method → route, as JSON in PROVIDER_ROUTES (the stack sets it from
 * the stage configuration, the local host from PROVIDERS or PROVIDER_ROUTES), parsed once for as
 * long as the variable holds the same text (every request and every operator of a page asks).
 */
export function providerRoutes(): Partial<Record<string, MethodRoute>> {
  const raw = process.env.PROVIDER_ROUTES;
  if (!parsedRoutes || parsedRoutes.raw !== raw) {
    parsedRoutes = { raw, routes: raw ? (JSON.parse(raw) as Record<string, MethodRoute>) : {} };
  }
  return parsedRoutes.routes;
}

/** The adapter a route names for a country (undefined country: the route's `*`). */
export const adapterOfRoute = (
  route: MethodRoute | undefined,
  country?: UemoaCountry,
): AdapterName | undefined =>
  typeof route === 'string' ? route : route && ((country ? route[country] : undefined) ?? route['*']);

/** The secret each live adapter reads its credentials from (`<NAME>` or `<NAME>_ARN`). */
export const adapterSecretVariable = {
  wave: 'WAVE_PROVIDER_SECRET',
  mtn: 'MTN_PROVIDER_SECRET',
  pawapay: 'PAWAPAY_PROVIDER_SECRET',
} as const;
export type LiveAdapterName = keyof typeof adapterSecretVariable;

/**
 * The fields each live adapter reads from its secret's JSON, every one a non-empty string: checked
 * when an operator puts a value in (admin put-provider-secret) and when a function reads it
 * (providerCredentials), so no call is ever signed with a missing key.
 */
export const adapterSecretFields: Record<LiveAdapterName, readonly string[]> = {
  wave: ['apiKey', 'webhookSecret'],
  mtn: [
    'collection.subscriptionKey',
    'collection.apiUser',
    'collection.apiKey',
    'disbursement.subscriptionKey',
    'disbursement.apiUser',
    'disbursement.apiKey',
  ],
  // `callbackPublicKey` (PEM) is optional: without it, callbacks are believed on the status check alone.
  pawapay: ['apiToken'],
};

/** What is wrong with `text` as the adapter's credentials, by field name only (never a value). */
export const providerSecretProblems = (adapter: LiveAdapterName, text: string): string[] =>
  jsonSecretProblems(adapterSecretFields[adapter], text);

/**
 * What is wrong with `text` as a JSON secret whose `fields` (dotted paths) must each be a
 * non-empty string, by field name only (never a value).
 */
export function jsonSecretProblems(fields: readonly string[], text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ['the value must be a JSON object'];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return ['the value must be a JSON object'];
  }
  return fields.flatMap((field) => {
    const value = field
      .split('.')
      .reduce<unknown>(
        (node, part) =>
          typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined,
        parsed,
      );
    return typeof value === 'string' && value.trim() !== '' ? [] : [`${field} must be a non-empty string`];
  });
}

/**
 * The live adapters whose provider calls back about payouts (`/provider_callbacks/{method}/payouts`),
 * which need its credentials to confirm a callback. Wave sends no payout event: its adapter refuses
 * every payout callback without reading its secret. pawaPay calls back on routes of its own.
 */
export const payoutCallbackAdapters: readonly LiveAdapterName[] = ['mtn'];

/**
 * Whether a payment method can be taken from a number of `country` on this stage: always on a
 * sandbox stage (what is not routed goes to the sandbox), only where a route names an adapter on
 * production. The payer pages offer only these (Djamo is not offered on production).
 */
export function routedOnThisStage(method: string, country: UemoaCountry): boolean {
  // Every deployed stage and the local host have a routes table (the stack always sets one); a
  // page rendered without any (a unit test of the page) offers every method.
  if (process.env.SANDBOX === 'true' || process.env.PROVIDER_ROUTES === undefined) return true;
  return adapterOfRoute(providerRoutes()[method], country) !== undefined;
}

/**
 * Whether an adapter carries a payment method for a payer (or beneficiary) of a country: Wave's
 * own API takes Wave wherever Wave is; MTN's takes MTN MoMo in the country its X-Target-Environment
 * names (`mtnivorycoast` by default, a stage setting); pawaPay takes what its provider table names;
 * the sandbox takes everything.
 */
export function adapterCarries(adapter: AdapterName, method: string, country: UemoaCountry): boolean {
  if (adapter === 'sandbox') return true;
  if (!isProviderCode(method)) return false;
  if (adapter === 'pawapay') return pawapayProviderOf(method, country) !== undefined;
  if (adapter === 'mtn') return method === 'mtn';
  return method === 'wave';
}

/**
 * Where a stage's routes and the payer pages' operator table (providerCountries) disagree: a
 * country a route names where the pages never offer that operator, or a country where the pages
 * offer it and the route sends it to an adapter that does not carry it there (the payer would
 * choose it and be refused). Checked at synth, so a stage cannot deploy either.
 */
export function routeProblems(routes: Partial<Record<string, MethodRoute>>): string[] {
  return Object.entries(routes).flatMap(([method, route]) => {
    if (!isProviderCode(method) || route === undefined) return [];
    const named = typeof route === 'string' ? [] : Object.keys(route).filter((key) => key !== '*');
    const unoffered = named
      .filter((country) => !providerCountries[method].includes(country as UemoaCountry))
      .map((country) => `${method}.${country}: the payer pages do not offer ${method} in ${country}`);
    const uncarried = uemoaCountries
      .filter((country) => providerServes(method, country))
      .flatMap((country) => {
        const adapter = adapterOfRoute(route, country);
        return adapter && !adapterCarries(adapter, method, country)
          ? [`${method} in ${country} → ${adapter}: that adapter does not carry it there`]
          : [];
      });
    return [...unoffered, ...uncarried];
  });
}
