import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { takeToShowOnce } from '#shared/http/shown-once.ts';
import { webhooksOverview } from '#shared/operations/dashboard-webhooks.ts';
import {
  type MadeSecret,
  type WebhooksNotice,
  webhookSecretPage,
  webhooksPage,
} from '#shared/pages/dashboard-webhooks.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.webhooksPage,
  async (request, member, session) => {
    const pageUrl = `${request.baseUrl}/dashboard/webhooks`;
    // After a secret is made (post, then redirect): the secret once; a reload finds it gone.
    if (request.query.secret) {
      const made = await takeToShowOnce<MadeSecret>(request, session, 'webhook-secret');
      if (made) return htmlPage(webhookSecretPage({ ...request, pageUrl }, made.secret, made.made));
    }
    const notice: WebhooksNotice | undefined = request.query.secret
      ? 'secretShown'
      : request.query.deleted
        ? 'deleted'
        : request.query.changed
          ? 'changed'
          : undefined;
    return htmlPage(
      webhooksPage({
        ...request,
        ...(await webhooksOverview(member)),
        pageUrl,
        csrfToken: session.csrfToken,
        canManage: roleAllows(member.role, 'manageWebhooks'),
        notice,
      }),
    );
  },
);
