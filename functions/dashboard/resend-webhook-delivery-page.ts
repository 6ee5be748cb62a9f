import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { resendDelivery } from '#shared/operations/dashboard-webhooks.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.resendWebhookDeliveryPage,
  async (request, member) => {
    await resendDelivery(member, request.params.deliveryId ?? '', request.sourceIp);
    return redirectTo(dashboardUrl(request, '/webhooks'));
  },
);
