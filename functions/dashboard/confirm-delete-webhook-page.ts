import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { WebhookSubscriptionNotFound } from '#shared/errors/webhooks.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { ownSubscriptions } from '#shared/operations/own-webhook-subscription.ts';
import { confirmWebhookActionPage } from '#shared/pages/dashboard-webhooks.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.confirmDeleteWebhookPage,
  async (request, member, session) => {
    const [subscription] = await ownSubscriptions(member);
    if (!subscription) throw new WebhookSubscriptionNotFound();
    const pageUrl = `${request.baseUrl}/dashboard/webhooks/delete`;
    return htmlPage(
      confirmWebhookActionPage({ ...request, pageUrl, csrfToken: session.csrfToken }, 'delete', subscription),
    );
  },
);
