import type { ZodMiniType as ZodType } from 'zod/mini';
import type { FunctionDeclaration } from '#shared/catalogue/access.ts';
import { type FunctionFolder, type Located, locatedIn } from '#shared/catalogue/entry-files.ts';
import type { DashboardAction } from '#shared/domain/dashboard-roles.ts';
import type { ErrorId } from '#shared/errors/domain-error.ts';

/**
 * An endpoint, declared once in its capability's module (`shared/api/<capability>.ts`): how it is
 * reached, who may call it, what it may touch in AWS, what it takes and answers. The CDK stack
 * makes an API Gateway method and one function with exactly that access from it, the local host
 * dispatches to it, the handler wrapper checks the caller and validates with its schemas, and the
 * reference (`GET /openapi.json`) is generated from it. Its entry file is found from its name
 * (`shared/catalogue/entry-files.ts`) and imports it.
 */

/** Who may call an endpoint. */
export type CallerKind =
  /** Any API key of a business with API access: merchant, platform, or platform scoped to a store. */
  | 'api_key'
  /** A platform key only (whole business or scoped to one store). */
  | 'platform_key'
  /** Any API key of a business that is a service provider. */
  | 'service_provider'
  /** No API key: hosted pages, provider callbacks. */
  | 'public';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Reached extends FunctionDeclaration {
  readonly method: HttpMethod;
  /** API Gateway path template, `{name}` for a path parameter. */
  readonly path: string;
  readonly caller: CallerKind;
  /**
   * Files of installed packages the handler reads at run time (`package/path`), copied beside the
   * function's bundle: the reference page's viewer, which is served, not bundled.
   */
  readonly files?: readonly string[];
  /** The reference's section: `Payment requests`, `Stores`, ... */
  readonly tag: string;
  /**
   * One line, in the reference's list of operations. Longer text an integrator needs lives in
   * `shared/openapi/descriptions.ts`, which only the reference's generator imports.
   */
  readonly summary: string;
}

/** A JSON endpoint of the API (`apiHandler`): its input is validated with these very schemas. */
export interface JsonEndpointDeclaration extends Reached {
  readonly params?: ZodType;
  readonly query?: ZodType;
  readonly body?: ZodType;
  /**
   * The status of a success: 200 unless said otherwise. Every endpoint of the original interface
   * answers 200 (some clients accept nothing else); an object the service makes anew may answer
   * 201 where its interface says so (refunds). The wrapper answers it and the reference publishes it.
   */
  readonly status?: 200 | 201;
  /** The answer of a success, as the handler's response builder shapes it. */
  readonly response: ZodType;
  readonly responseDescription: string;
  /**
   * The ids of the domain errors this endpoint may answer, beyond what every endpoint of its caller
   * kind answers (401/403 for keys, 422 `validation_error` when it takes input, 400 for a body that
   * is not JSON, 500): their statuses come from `shared/http/error-status.ts`.
   */
  readonly errors?: readonly ErrorId[];
  /** Takes `Idempotency-Key` (and may answer its two errors). */
  readonly idempotent?: boolean;
}

/** A public HTML page or form post (`pageHandler`). */
export interface PageEndpointDeclaration extends Reached {
  readonly page: true;
  readonly caller: 'public';
  readonly params?: ZodType;
  readonly query?: ZodType;
  /**
   * The fields of the posted form (`application/x-www-form-urlencoded`): a dashboard page's wrapper
   * parses them with this very schema into the page's typed `fields` and `fieldErrors`.
   */
  readonly form?: ZodType;
  /**
   * A dashboard page of a business: what the acting member's role must allow
   * (`shared/domain/dashboard-roles.ts`), as `caller` says who may call an API endpoint. The
   * wrapper (`dashboardPage`) asks it of the member's role before the page runs and answers 403
   * `forbidden_action` when it does not; the navigation shows a member only the pages it may open
   * (`mayOpen`). Pages of a person rather than a business (signing in, choosing a business) have none.
   */
  readonly permission?: DashboardAction;
  /** Each status the page may answer, with what it means. A 303 is a redirect. */
  readonly answers: Readonly<Record<number, string>>;
  /**
   * The answer is streamed as it is made (a CSV export), not built whole: API Gateway's integration
   * is in STREAM mode with a longer timeout, the handler is `streamedPageHandler`, the local host
   * pipes its writes to the socket as they come, and the reference names the streamed type.
   */
  readonly streams?: { readonly contentType: string; readonly timeoutMinutes: number };
}

/** A document served as is (the reference itself, the reference page and its files). */
export interface DocumentEndpointDeclaration extends Reached {
  readonly document: true;
  readonly params?: ZodType;
  readonly query?: ZodType;
  readonly contentType: string;
  readonly answers: Readonly<Record<number, string>>;
}

export type EndpointDeclaration =
  | JsonEndpointDeclaration
  | PageEndpointDeclaration
  | DocumentEndpointDeclaration;

export type JsonEndpoint = JsonEndpointDeclaration & Located;
export type PageEndpoint = PageEndpointDeclaration & Located;
export type DocumentEndpoint = DocumentEndpointDeclaration & Located;
export type Endpoint = EndpointDeclaration & Located;

/** A capability's endpoints whose entry files are in `functions/<folder>/`. */
export const endpointsIn = <const T extends Record<string, EndpointDeclaration>>(
  folder: FunctionFolder,
  declarations: T,
) => locatedIn(folder, declarations);
