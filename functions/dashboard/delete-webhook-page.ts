import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { deleteWebhook } from '#shared/operations/dashboard-webhooks.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.deleteWebhookPage,
  async (request, member) => {
    await deleteWebhook(member, request.fields.subscriptionId, request.sourceIp);
    return redirectTo(withNotice(dashboardUrl(request, '/webhooks'), 'deleted', '1'));
  },
);
