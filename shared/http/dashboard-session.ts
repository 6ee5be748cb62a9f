import { createHash, timingSafeEqual } from 'node:crypto';
import type { PageEndpoint } from '#shared/api/endpoint.ts';
import { absoluteLimitMs, type DashboardSession } from '#shared/data/dashboard-session.ts';
import { signUpWindowMs } from '#shared/data/sign-in-code.ts';
import { type DashboardAction, type MemberRole, requireRoleAllows } from '#shared/domain/dashboard-roles.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';
import { BusinessNotChosen } from '#shared/errors/dashboard.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import {
  type FieldsOf,
  type PageOptions,
  type PageRequest,
  type PageResult,
  pageHandler,
  redirectTo,
} from '#shared/http/page-handler.ts';
import { publicBaseUrl } from '#shared/http/public-base-url.ts';
import { type ActingMember, actingMember } from '#shared/operations/dashboard-access.ts';
import { resumeSession } from '#shared/operations/dashboard-sessions.ts';
import { dashboardContentSecurityPolicy } from '#shared/pages/dashboard-chrome.ts';
import { dashboardErrorPage } from '#shared/pages/dashboard-template.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

/**
 * What every dashboard page shares, so no page re-implements it: the session cookie, the pending
 * sign-in's cookie, the Origin check on every post and the CSRF token on every post of a session.
 * A page is `withSession(render)` (no session: to the sign-in page) or `withoutSession(render)`
 * (the sign-in steps, whose posts are checked for their Origin only: there is no session yet).
 */

/**
 * `same-origin`, not the hosted pages' `no-referrer`: under `no-referrer` a browser posts a form
 * with `Origin: null`, and the dashboard refuses any post whose Origin is not its own.
 */
export const dashboardPageOptions: PageOptions = {
  headers: { 'referrer-policy': 'same-origin', 'content-security-policy': dashboardContentSecurityPolicy },
  errorPage: ({ statusCode, language, requestId, event, context }) =>
    dashboardErrorPage(
      {
        language,
        languagePinned: event.queryStringParameters?.lang?.trim().toLowerCase() === language,
        baseUrl: publicBaseUrl(event),
        role: rolesOfRequests.get(context),
      },
      statusCode,
      requestId,
    ),
};

/**
 * The acting member's role by the request's Lambda context, kept once the member is read: an error
 * page (a refusal, a 404) then shows the navigation that member's role opens.
 */
const rolesOfRequests = new WeakMap<object, MemberRole>();

const isHttps = (baseUrl: string) => new URL(baseUrl).protocol === 'https:';

/**
 * `__Host-` binds the cookie to this very host, over HTTPS, for the whole site (no Domain, Path=/):
 * a sibling subdomain cannot set or shadow it. Browsers refuse the prefix without Secure, so plain
 * HTTP (the local host) uses the bare name.
 */
export const sessionCookieName = (baseUrl: string) => (isHttps(baseUrl) ? '__Host-session' : 'session');
export const attemptCookieName = (baseUrl: string) => (isHttps(baseUrl) ? '__Host-sign-in' : 'sign-in');

function cookie(name: string, value: string, baseUrl: string, maxAgeSeconds: number): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    // Sent on a top-level navigation from elsewhere (a link in an SMS), never on another site's post.
    'SameSite=Lax',
    ...(isHttps(baseUrl) ? ['Secure'] : []),
  ].join('; ');
}

export const sessionCookie = (id: string, baseUrl: string) =>
  cookie(sessionCookieName(baseUrl), id, baseUrl, absoluteLimitMs / 1000);
export const endedSessionCookie = (baseUrl: string) => cookie(sessionCookieName(baseUrl), '', baseUrl, 0);
/** Holds the attempt's random id (never the phone) through the code and sign-up steps. */
export const attemptCookie = (attemptId: string, baseUrl: string) =>
  cookie(attemptCookieName(baseUrl), attemptId, baseUrl, (5 * 60_000 + signUpWindowMs) / 1000);

/** A cookie's value in a Cookie header; the first one of that name. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const [key = '', ...value] = pair.split('=');
    if (key.trim() === name) return value.join('=').trim();
  }
  return undefined;
}

const uuidShape = /^[0-9a-f-]{36}$/;

/** The pending sign-in's attempt id, when the cookie holds something shaped like one. */
export function attemptIdOf(request: PageRequest<object>): string | undefined {
  const value = cookieValue(request.headers.cookie, attemptCookieName(request.baseUrl));
  return value && uuidShape.test(value) ? value : undefined;
}

/**
 * A post must come from the service's own pages: the browser's Origin must be exactly ours. A post
 * without one (an old client, a script) is refused too: nothing a person does here lacks it.
 */
export function requireOwnOrigin(request: PageRequest<object>): void {
  if (request.method !== 'POST') return;
  if (request.headers.origin !== new URL(request.baseUrl).origin) {
    throw new ForbiddenAction('The form was not posted from this site');
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The session's token must come back in the form; compared in constant time (digests: equal lengths). */
export function requireCsrfToken(session: DashboardSession, form: Record<string, string>): void {
  const presented = form.csrf ?? '';
  if (presented === '' || !timingSafeEqual(digest(presented), digest(session.csrfToken))) {
    throw new ForbiddenAction('The form is missing its token or carries another session’s');
  }
}

/**
 * A post whose declared form lacks a field the page always sends (a hidden id, the token) or holds
 * one it never would: not a post of the page's own form. Asked after the Origin, the session, the
 * token and the role, so a refused post is refused for those first, as it was before forms were parsed.
 */
export function requireWellFormed(request: Pick<PageRequest<object>, 'malformedForm' | 'fieldErrors'>): void {
  if (!request.malformedForm) return;
  throw new ValidationFailed(
    request.fieldErrors.map(({ field, problem }) => ({
      field,
      rule: problem === 'missing' ? 'required' : 'in',
      message: `The form's ${field} field is ${problem}`,
    })),
  );
}

export type SessionPageRender<Fields extends object = Record<string, never>, R = PageResult> = (
  request: PageRequest<Fields>,
  session: DashboardSession,
) => Promise<R>;

/**
 * A page of a signed-in person. Without a live session: to the sign-in page (the stale cookie
 * cleared). A post is checked for its Origin and its CSRF token before the page runs, so a refused
 * post (403) changes nothing. A page that needs a business (`actingMember`) and finds none chosen
 * sends the person to the businesses page.
 */
export function withSession<Fields extends object = Record<string, never>, R = PageResult>(
  render: SessionPageRender<Fields, R>,
) {
  return signedIn<Fields, R>(async (request, session) => {
    requireWellFormed(request);
    return render(request, session);
  });
}

function signedIn<Fields extends object, R>(render: SessionPageRender<Fields, R>) {
  return async (request: PageRequest<Fields>): Promise<R | PageResult> => {
    requireOwnOrigin(request);
    const presented = cookieValue(request.headers.cookie, sessionCookieName(request.baseUrl));
    const session = await resumeSession(presented);
    if (!session) {
      return redirectTo(
        dashboardUrl(request, '/sign-in'),
        presented === undefined ? undefined : endedSessionCookie(request.baseUrl),
      );
    }
    if (request.method === 'POST') requireCsrfToken(session, request.form);
    try {
      return await render(request, session);
    } catch (error) {
      // No business chosen yet, or no longer a member of it: choose (again) first.
      if (error instanceof BusinessNotChosen) return redirectTo(dashboardUrl(request, '/businesses'));
      throw error;
    }
  };
}

/** What a page of a business declares: the action its member's role must allow. */
export interface MemberPageDeclaration {
  readonly permission: DashboardAction;
}

export type MemberPageRender<Fields extends object = Record<string, never>, R = PageResult> = (
  /** With the member's role, which the template's navigation reads (a page spreads the request). */
  request: PageRequest<Fields> & { role: MemberRole; timeZone?: string | undefined },
  member: ActingMember,
  session: DashboardSession,
) => Promise<R>;

/**
 * A page of the business the session acts for: the acting member is read afresh (a role change or
 * a removal applies at once) and its role must allow the page's declared permission, or the page
 * is refused 403 `forbidden_action` before anything is read or written for it.
 */
export function withMember<Fields extends object = Record<string, never>, R = PageResult>(
  page: MemberPageDeclaration,
  render: MemberPageRender<Fields, R>,
) {
  return signedIn<Fields, R>(async (request, session) => {
    const member = await actingMember(session);
    rolesOfRequests.set(request.context, member.role);
    requireRoleAllows(member.role, page.permission);
    requireWellFormed(request);
    return render({ ...request, role: member.role, timeZone: member.timeZone }, member, session);
  });
}

/**
 * A dashboard page of a business, from its declaration: its form parsed into typed `fields`, its
 * permission asked of the acting member, the dashboard's headers. The page gets the member.
 */
export function dashboardPage<const E extends PageEndpoint & MemberPageDeclaration>(
  endpoint: E,
  render: MemberPageRender<FieldsOf<E>>,
  options: PageOptions = {},
) {
  return pageHandler(endpoint, withMember<FieldsOf<E>>(endpoint, render), {
    ...dashboardPageOptions,
    ...options,
  });
}

/** A step before any session (phone, code, sign-up): its posts are checked for their Origin. */
export function withoutSession<Fields extends object = Record<string, never>>(
  render: (request: PageRequest<Fields>) => Promise<PageResult>,
) {
  return async (request: PageRequest<Fields>): Promise<PageResult> => {
    requireOwnOrigin(request);
    requireWellFormed(request);
    return render(request);
  };
}
