import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { transactionPath } from '#shared/operations/dashboard-transactions.ts';
import { resendDelivery } from '#shared/operations/dashboard-webhooks.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'resendTransactionDeliveryPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageWebhooks');
    await resendDelivery(member, request.params.deliveryId ?? '', request.sourceIp);
    const pageId = encodeURIComponent(request.params.transactionId ?? '');
    return redirectTo(dashboardUrl(request, transactionPath({ pageId, at: request.query.at })));
  }),
  dashboardPageOptions,
);
