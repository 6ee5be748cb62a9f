import { WebhookSubscriptionNotFound } from '#shared/errors/webhooks.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { ownSubscriptions } from '#shared/operations/own-webhook-subscription.ts';
import { confirmWebhookActionPage } from '#shared/pages/dashboard-webhooks.ts';

export const handler = pageHandler(
  'confirmDeleteWebhookPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageWebhooks');
    const [subscription] = await ownSubscriptions(member);
    if (!subscription) throw new WebhookSubscriptionNotFound();
    return htmlPage(
      confirmWebhookActionPage(
        { ...request, pageUrl: `${request.baseUrl}/dashboard/webhooks/delete`, csrfToken: session.csrfToken },
        'delete',
        subscription,
      ),
    );
  }),
  dashboardPageOptions,
);
