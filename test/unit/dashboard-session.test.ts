import { describe, expect, it, vi } from 'vitest';
import type { DashboardSession } from '#shared/data/dashboard-session.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';
import type { PageRequest } from '#shared/http/page-handler.ts';

/** The session this test's requests resume, keyed by the id their cookie holds. */
const live = vi.hoisted(() => new Map<string, unknown>());
vi.mock('#shared/operations/dashboard-sessions.ts', () => ({
  resumeSession: async (id: string | undefined) => (id ? live.get(id) : undefined),
}));

const {
  attemptCookie,
  attemptIdOf,
  cookieValue,
  endedSessionCookie,
  requireCsrfToken,
  requireOwnOrigin,
  sessionCookie,
  withSession,
  withoutSession,
} = await import('#shared/http/dashboard-session.ts');

const session: DashboardSession = {
  idHash: 'h',
  userId: 'u',
  csrfToken: 'T'.repeat(43),
  createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
};
const sessionId = 'S'.repeat(43);
live.set(sessionId, session);

function request(overrides: Partial<PageRequest> = {}): PageRequest {
  return {
    method: 'GET',
    params: {},
    query: {},
    form: {},
    fields: {},
    fieldErrors: [],
    malformedForm: false,
    language: 'fr',
    languagePinned: false,
    headers: {},
    baseUrl: 'https://pay.example',
    requestId: 'r',
    sourceIp: '198.51.100.7',
    context: {} as PageRequest['context'],
    ...overrides,
  };
}

const post = (headers: Record<string, string>, form: Record<string, string> = {}) =>
  request({ method: 'POST', headers, form });

describe('dashboard cookies', () => {
  it('over HTTPS: __Host-session, HttpOnly, Secure, SameSite=Lax, the whole site, no Domain', () => {
    const cookie = sessionCookie(sessionId, 'https://pay.example/prod');
    expect(cookie.split('; ')).toEqual([
      `__Host-session=${sessionId}`,
      'Path=/',
      'Max-Age=43200',
      'HttpOnly',
      'SameSite=Lax',
      'Secure',
    ]);
  });

  it('on plain-HTTP localhost: a bare name without Secure, which browsers would refuse there', () => {
    const cookie = sessionCookie(sessionId, 'http://localhost:3000');
    expect(cookie).toMatch(/^session=S{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);
  });

  it('ends the session cookie at once on sign-out', () => {
    expect(endedSessionCookie('https://pay.example')).toContain('__Host-session=; Path=/; Max-Age=0');
  });

  it('holds the pending sign-in’s attempt id, and ignores a value shaped otherwise', () => {
    const attemptId = '3f0a3b6f-1f11-4c43-9a7e-0b0d6c1e6a2f';
    expect(attemptCookie(attemptId, 'https://pay.example')).toMatch(
      /^__Host-sign-in=3f0a3b6f-[^;]+; Path=\//,
    );
    expect(attemptIdOf(request({ headers: { cookie: `a=b; __Host-sign-in=${attemptId}` } }))).toBe(attemptId);
    expect(attemptIdOf(request({ headers: { cookie: '__Host-sign-in=+2250700000000' } }))).toBeUndefined();
    expect(attemptIdOf(request({ headers: { cookie: `sign-in=${attemptId}` } }))).toBeUndefined();
  });

  it('reads the first cookie of a name, values with = included', () => {
    expect(cookieValue('x=1; session=a=b; session=c', 'session')).toBe('a=b');
    expect(cookieValue(undefined, 'session')).toBeUndefined();
  });
});

describe('the Origin of a post', () => {
  it('lets a post from the service’s own origin through, and any GET', () => {
    expect(() => requireOwnOrigin(post({ origin: 'https://pay.example' }))).not.toThrow();
    expect(() => requireOwnOrigin(request({ headers: { origin: 'https://evil.example' } }))).not.toThrow();
  });

  it.each([
    ['another site', 'https://evil.example'],
    ['a look-alike host', 'https://pay.example.evil.example'],
    ['the same host over HTTP', 'http://pay.example'],
    ['another port', 'https://pay.example:8443'],
    ['a sandboxed or privacy-stripped page', 'null'],
  ])('refuses a post from %s', (_, origin) => {
    expect(() => requireOwnOrigin(post({ origin }))).toThrow(ForbiddenAction);
  });

  it('refuses a post with no Origin at all', () => {
    expect(() => requireOwnOrigin(post({}))).toThrow(ForbiddenAction);
  });
});

describe('the CSRF token', () => {
  it('accepts the session’s own token', () => {
    expect(() => requireCsrfToken(session, { csrf: session.csrfToken })).not.toThrow();
  });

  it.each([
    ['missing', {}],
    ['empty', { csrf: '' }],
    ['another session’s', { csrf: 'U'.repeat(43) }],
    ['of another length', { csrf: 'T' }],
  ])('refuses a token %s', (_, form: Record<string, string>) => {
    expect(() => requireCsrfToken(session, form)).toThrow(ForbiddenAction);
  });
});

describe('pages of a session', () => {
  const render = vi.fn(async () => ({ statusCode: 200, html: 'ok' }));
  const page = withSession(render);
  const cookie = `session=${sessionId}`;
  const base = 'http://localhost:3000';

  it('sends a visitor without a session to the sign-in page, clearing a stale cookie', async () => {
    render.mockClear();
    expect(await page(request({ baseUrl: base }))).toEqual({
      redirect: `${base}/dashboard/sign-in`,
      setCookie: undefined,
    });
    const stale = await page(request({ baseUrl: base, headers: { cookie: 'session=forged' } }));
    expect(stale).toMatchObject({
      redirect: `${base}/dashboard/sign-in`,
      setCookie: expect.stringMatching(/^session=; /),
    });
    expect(render).not.toHaveBeenCalled();
  });

  it('keeps a language chosen on the page when it redirects', async () => {
    const answer = await page(request({ baseUrl: base, language: 'en', languagePinned: true }));
    expect(answer).toMatchObject({ redirect: `${base}/dashboard/sign-in?lang=en` });
  });

  it('refuses a post of the session without its token, or from elsewhere, before the page runs', async () => {
    render.mockClear();
    const own = { cookie, origin: base };
    await expect(page({ ...post(own), baseUrl: base })).rejects.toThrow(ForbiddenAction);
    await expect(
      page({
        ...post({ cookie, origin: 'https://evil.example' }, { csrf: session.csrfToken }),
        baseUrl: base,
      }),
    ).rejects.toThrow(ForbiddenAction);
    expect(render).not.toHaveBeenCalled();
    await page({ ...post(own, { csrf: session.csrfToken }), baseUrl: base });
    expect(render).toHaveBeenCalledOnce();
  });

  it('checks the Origin of the steps before a session too', async () => {
    const step = vi.fn(async () => ({ statusCode: 200, html: 'ok' }));
    await expect(withoutSession(step)(post({ origin: 'https://evil.example' }))).rejects.toThrow(
      ForbiddenAction,
    );
    expect(step).not.toHaveBeenCalled();
  });
});
