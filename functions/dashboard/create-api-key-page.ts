import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { ApiKeyLimitReached } from '#shared/errors/api-keys.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { keepToShowOnce } from '#shared/http/shown-once.ts';
import {
  createKeyFor,
  invalidKeyFields,
  keysOverview,
  type NewKeyForm,
} from '#shared/operations/dashboard-api-keys.ts';
import { apiKeysPage, type CreatedKey, type KeyFormState } from '#shared/pages/dashboard-api-keys.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.createApiKeyPage,
  async (request, member, session) => {
    const { kind, name, storeId } = request.fields;
    const form: NewKeyForm = {
      name,
      kind: kind ?? 'merchant',
      storeId: storeId || undefined,
    };
    const overview = await keysOverview(member);
    const again = (state: KeyFormState, status: number) =>
      htmlPage(
        apiKeysPage(
          {
            ...request,
            ...overview,
            pageUrl: `${request.baseUrl}/dashboard/api-keys`,
            csrfToken: session.csrfToken,
            canManage: roleAllows(member.role, 'manageKeys'),
          },
          state,
        ),
        status,
      );
    const state = { name: form.name, kind: form.kind, storeId: form.storeId ?? '' };
    const errors = invalidKeyFields(
      form,
      overview.stores.map((store) => store.id),
    );
    if (errors.length > 0) return again({ ...state, errors }, 400);
    try {
      const { apiKey, secret } = await createKeyFor(member, form, request.sourceIp);
      // Post, then redirect: the page that shows the secret is a GET, so a reload makes no second key.
      const created: CreatedKey = { id: apiKey.id, name: apiKey.name, secret };
      await keepToShowOnce(request, session, 'api-key', created);
      return redirectTo(withNotice(dashboardUrl(request, '/api-keys'), 'created', apiKey.id));
    } catch (error) {
      if (error instanceof ApiKeyLimitReached)
        return again({ ...state, errors: [], limitReached: true }, 409);
      throw error;
    }
  },
);
