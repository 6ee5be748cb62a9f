import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { rotateWebhookSecret } from '#shared/operations/dashboard-webhooks.ts';
import { webhookSecretPage } from '#shared/pages/dashboard-webhooks.ts';

export const handler = pageHandler(
  'rotateWebhookSecretPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageWebhooks');
    const secret = await rotateWebhookSecret(member, request.form.subscriptionId ?? '', request.sourceIp);
    return htmlPage(
      webhookSecretPage({ ...request, pageUrl: `${request.baseUrl}/dashboard/webhooks` }, secret, 'rotated'),
    );
  }),
  dashboardPageOptions,
);
