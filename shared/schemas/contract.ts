import type { ZodMiniType as ZodType } from 'zod/mini';
import type { ErrorId } from '#shared/errors/domain-error.ts';
import type { RouteName } from '#shared/routes.ts';

/**
 * What a route takes and answers, described once: the handler validates its input with these very
 * schemas, the reference (`GET /openapi.json`) is generated from them, and the end-to-end tests
 * check every answer against that reference. Contracts sit beside their capability's schemas
 * (`shared/schemas/<capability>.ts`) and are gathered by route name in `shared/openapi/contracts.ts`.
 */
interface Described {
  /** The reference's section: `Payment requests`, `Stores`, ... */
  readonly tag: string;
  /** One line, in the reference's list of operations. */
  readonly summary: string;
  /** Markdown: rules an integrator must know that the schemas cannot say. */
  readonly description?: string;
}

/** A JSON route of the API (`apiHandler`). */
export interface JsonRouteContract extends Described {
  readonly params?: ZodType;
  readonly query?: ZodType;
  readonly body?: ZodType;
  /** The answer of a success (200), as the handler's response builder shapes it. */
  readonly response: ZodType;
  readonly responseDescription: string;
  /**
   * The ids of the domain errors this route may answer, beyond what every route of its caller kind
   * answers (401/403 for keys, 422 `validation_error` when it takes input, 400 for a body that is
   * not JSON, 500): their statuses come from `shared/http/error-status.ts`.
   */
  readonly errors?: readonly ErrorId[];
  /** Takes `Idempotency-Key` (and may answer its two errors). */
  readonly idempotent?: boolean;
}

/** A public HTML page or form post (`pageHandler`). */
export interface PageRouteContract extends Described {
  readonly page: true;
  readonly params?: ZodType;
  readonly query?: ZodType;
  /** The fields of the posted form (`application/x-www-form-urlencoded`). */
  readonly form?: ZodType;
  /** Each status the page may answer, with what it means. A 303 is a redirect. */
  readonly answers: Readonly<Record<number, string>>;
}

/** A document served as is (the reference itself, the reference page and its files). */
export interface DocumentRouteContract extends Described {
  readonly document: true;
  readonly params?: ZodType;
  readonly query?: ZodType;
  readonly contentType: string;
  readonly answers: Readonly<Record<number, string>>;
}

export type RouteContract = JsonRouteContract | PageRouteContract | DocumentRouteContract;

/** Contracts of some routes, by route name: what a capability's schema module exports. */
export type RouteContracts = { readonly [Name in RouteName]?: RouteContract };
