import { dashboardTransactionEndpoints } from '#shared/api/dashboard-transactions.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { transactionPath } from '#shared/operations/dashboard-transactions.ts';
import { resendDelivery } from '#shared/operations/dashboard-webhooks.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTransactionEndpoints.resendTransactionDeliveryPage,
  async (request, member) => {
    await resendDelivery(member, request.params.deliveryId ?? '', request.sourceIp);
    const pageId = encodeURIComponent(request.params.transactionId ?? '');
    return redirectTo(dashboardUrl(request, transactionPath({ pageId, at: request.query.at })));
  },
);
