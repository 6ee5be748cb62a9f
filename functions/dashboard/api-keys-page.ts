import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { takeToShowOnce } from '#shared/http/shown-once.ts';
import { keysOverview } from '#shared/operations/dashboard-api-keys.ts';
import { apiKeysPage, type CreatedKey, createdKeyPage } from '#shared/pages/dashboard-api-keys.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.apiKeysPage,
  async (request, member, session) => {
    const overview = await keysOverview(member);
    const pageUrl = `${request.baseUrl}/dashboard/api-keys`;
    // After a key is made (post, then redirect): its secret once; a reload finds it gone.
    const createdId = request.query.created;
    if (createdId) {
      const created = await takeToShowOnce<CreatedKey>(request, session, 'api-key');
      if (created && created.id === createdId)
        return htmlPage(createdKeyPage({ ...request, pageUrl, apiAccess: overview.apiAccess }, created));
    }
    const notice = createdId ? overview.keys.find((key) => key.id === createdId) : undefined;
    return htmlPage(
      apiKeysPage({
        ...request,
        ...overview,
        pageUrl,
        csrfToken: session.csrfToken,
        canManage: roleAllows(member.role, 'manageKeys'),
        notice: notice ? { created: notice.name } : request.query.revoked ? { revoked: true } : undefined,
      }),
    );
  },
);
