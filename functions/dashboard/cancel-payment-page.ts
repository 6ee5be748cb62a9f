import { dashboardTransactionEndpoints } from '#shared/api/dashboard-transactions.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { ActionRefused, cancelPayment } from '#shared/operations/dashboard-payment-actions.ts';
import { transactionDetailOf, transactionPath } from '#shared/operations/dashboard-transactions.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { transactionPage, transactionPageContextOf } from '#shared/pages/dashboard-transaction.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTransactionEndpoints.cancelPaymentPage,
  async (request, member, session) => {
    const detail = await transactionDetailOf(member, request.params.transactionId ?? '', request.query.at);
    try {
      await cancelPayment(member, detail, request.sourceIp);
      return redirectTo(withNotice(dashboardUrl(request, transactionPath(detail)), 'done', 'cancelled'));
    } catch (error) {
      if (!(error instanceof ActionRefused)) throw error;
      const context = transactionPageContextOf(request, session.csrfToken, member.role, detail);
      return htmlPage(transactionPage(context, { problem: error.problem }), error.status);
    }
  },
);
