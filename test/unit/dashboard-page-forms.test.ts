import { describe, expect, it, vi } from 'vitest';
import { enum as enumOf, object, optional, string } from 'zod/mini';
import { text, trimmedText } from '#shared/api/form-fields.ts';
import type { DashboardSession } from '#shared/data/dashboard-session.ts';
import type { MemberRole } from '#shared/domain/dashboard-roles.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { type PageRequest, parseForm } from '#shared/http/page-handler.ts';

// The dashboard's wrappers: a page's declared form parsed into typed fields and field errors, and
// its declared permission asked of the acting member's role before the page runs.

const session: DashboardSession = {
  idHash: 'h',
  userId: 'u',
  businessId: 'b',
  memberId: 'm',
  csrfToken: 'T'.repeat(43),
  createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
};
const sessionId = 'S'.repeat(43);
const acting = vi.hoisted(() => ({ role: 'owner' as string }));
vi.mock('#shared/operations/dashboard-sessions.ts', () => ({
  resumeSession: async (id: string | undefined) => (id === 'S'.repeat(43) ? session : undefined),
}));
vi.mock('#shared/operations/dashboard-access.ts', () => ({
  actingMember: async () => ({ businessId: 'b', memberId: 'm', userId: 'u', role: acting.role }),
}));

const { withMember } = await import('#shared/http/dashboard-session.ts');
const { mayOpen } = await import('#shared/api/dashboard-pages.ts');

const form = object({
  csrf: string(),
  name: trimmedText(),
  note: text(),
  role: optional(enumOf(['owner', 'viewer'])),
});

describe('a declared form, parsed', () => {
  it('gives each field its typed value, text trimmed where declared so', () => {
    expect(parseForm(form, { csrf: 't', name: '  Awa ', note: ' livraison ', role: 'viewer' })).toEqual({
      fields: { csrf: 't', name: 'Awa', note: ' livraison ', role: 'viewer' },
      fieldErrors: [],
      malformedForm: false,
    });
  });

  it('takes text left out as empty, for the page to say what is missing in its own words', () => {
    expect(parseForm(form, { csrf: 't' })).toEqual({
      fields: { csrf: 't', name: '', note: '' },
      fieldErrors: [],
      malformedForm: false,
    });
  });

  it('names a choice that is none of the offered ones, leaves it undefined, and keeps the rest', () => {
    const parsed = parseForm(form, { csrf: 't', name: 'Awa', role: 'superuser' });
    expect(parsed.fields).toEqual({ csrf: 't', name: 'Awa', note: '' });
    expect(parsed.fieldErrors).toEqual([{ field: 'role', problem: 'invalid' }]);
    expect(parsed.malformedForm).toBe(false);
  });

  it('calls a form without a field the page always sends malformed', () => {
    const parsed = parseForm(form, { name: 'Awa' });
    expect(parsed.fieldErrors).toEqual([{ field: 'csrf', problem: 'missing' }]);
    expect(parsed.malformedForm).toBe(true);
  });

  it('has nothing to parse for a page that declares no form', () => {
    expect(parseForm(undefined, { anything: 'x' })).toEqual({
      fields: {},
      fieldErrors: [],
      malformedForm: false,
    });
  });
});

function post(fields: PageRequest['form'], malformedForm = false): PageRequest {
  return {
    method: 'POST',
    params: {},
    query: {},
    form: { csrf: session.csrfToken, ...fields },
    fields: {},
    fieldErrors: malformedForm ? [{ field: 'storeId', problem: 'missing' }] : [],
    malformedForm,
    language: 'fr',
    languagePinned: false,
    headers: { cookie: `session=${sessionId}`, origin: 'http://localhost:3000' },
    baseUrl: 'http://localhost:3000',
    requestId: 'r',
    sourceIp: '198.51.100.7',
    context: {} as PageRequest['context'],
  };
}

describe('a page’s declared permission', () => {
  const render = vi.fn(async () => ({ statusCode: 200, html: 'ok' }));
  const page = withMember({ permission: 'sendMoney' }, render);

  it('runs the page for a role that allows it, giving it the acting member', async () => {
    acting.role = 'admin';
    render.mockClear();
    expect(await page(post({}))).toEqual({ statusCode: 200, html: 'ok' });
    expect(render).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ role: 'admin' }),
      session,
    );
  });

  it.each(['developer', 'finance', 'viewer'])('refuses a %s (403) before the page runs', async (role) => {
    acting.role = role;
    render.mockClear();
    await expect(page(post({}))).rejects.toThrow(ForbiddenAction);
    expect(render).not.toHaveBeenCalled();
  });

  it('refuses a role first, then a malformed form (400), as a hand-made post met them before', async () => {
    acting.role = 'viewer';
    await expect(page(post({}, true))).rejects.toThrow(ForbiddenAction);
    acting.role = 'owner';
    render.mockClear();
    await expect(page(post({}, true))).rejects.toThrow(ValidationFailed);
    expect(render).not.toHaveBeenCalled();
  });
});

describe('what the navigation may show', () => {
  it.each<[MemberRole, boolean]>([
    ['owner', true],
    ['admin', true],
    ['developer', false],
    ['finance', false],
    ['viewer', false],
  ])('a %s may open a page as its declared permission says (%s)', (role, may) => {
    expect(mayOpen(role, 'switchPaymentLinkPage')).toBe(may);
  });

  it('opens a page of the person, which declares no permission, to every role', () => {
    expect(mayOpen('viewer', 'businessesPage')).toBe(true);
  });
});
