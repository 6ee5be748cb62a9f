import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { sendWebhookTest } from '#shared/operations/dashboard-webhooks.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'sendTestWebhookPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageWebhooks');
    await sendWebhookTest(member, request.sourceIp);
    return redirectTo(dashboardUrl(request, '/webhooks'));
  }),
  dashboardPageOptions,
);
