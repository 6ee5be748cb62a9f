import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { deleteWebhook } from '#shared/operations/dashboard-webhooks.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'deleteWebhookPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageWebhooks');
    await deleteWebhook(member, request.form.subscriptionId ?? '', request.sourceIp);
    return redirectTo(withNotice(dashboardUrl(request, '/webhooks'), 'deleted', '1'));
  }),
  dashboardPageOptions,
);
