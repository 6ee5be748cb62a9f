import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { sendWebhookTest } from '#shared/operations/dashboard-webhooks.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.sendTestWebhookPage,
  async (request, member) => {
    await sendWebhookTest(member, request.sourceIp);
    return redirectTo(dashboardUrl(request, '/webhooks'));
  },
);
