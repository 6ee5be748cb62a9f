/**
 * The route table: every HTTP route of the service, once. The CDK stack turns each entry into an
 * API Gateway method and one Lambda function with exactly the AWS access listed; the local host
 * dispatches requests to the same handlers; the handler wrapper checks the caller kind from here.
 * Pure data, so handlers can import it without pulling in CDK or the local host.
 */

/** Who may call a route. */
export type CallerKind =
  /** Any API key of a business with API access: merchant, platform, or platform scoped to a store. */
  | 'api_key'
  /** A platform key only (whole business or scoped to one store). */
  | 'platform_key'
  /** Any API key of a business that is a service provider. */
  | 'service_provider'
  /** No API key: hosted pages, provider callbacks. */
  | 'public';

/** What a route's function may touch in AWS; the stack grants exactly this. */
export type AwsAccess = 'table:read' | 'table:write';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  readonly method: HttpMethod;
  /** API Gateway path template, `{name}` for a path parameter. */
  readonly path: string;
  /** Entry file, relative to the project root. It exports `handler`. */
  readonly handler: string;
  readonly caller: CallerKind;
  readonly access: readonly AwsAccess[];
}

export const routes = {
  listStores: {
    method: 'GET',
    path: '/partner_api/stores',
    handler: 'functions/stores/list-stores.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  getStoreBalance: {
    method: 'GET',
    path: '/partner_api/stores/{storeId}/balance',
    handler: 'functions/stores/get-store-balance.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  listDevices: {
    method: 'GET',
    path: '/partner_api/devices',
    handler: 'functions/devices/list-devices.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;

export const routeEntries = Object.entries(routes) as [RouteName, Route][];
