import { dashboardTransactionEndpoints } from '#shared/api/dashboard-transactions.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { ActionRefused, previewRefund } from '#shared/operations/dashboard-payment-actions.ts';
import { transactionDetailOf } from '#shared/operations/dashboard-transactions.ts';
import {
  confirmRefundPage,
  transactionPage,
  transactionPageContextOf,
} from '#shared/pages/dashboard-transaction.ts';

export const handler = dashboardPage(
  dashboardTransactionEndpoints.refundTransactionPage,
  async (request, member, session) => {
    const detail = await transactionDetailOf(member, request.params.transactionId ?? '', request.query.at);
    const context = transactionPageContextOf(request, session.csrfToken, member.role, detail);
    const { amount } = request.fields;
    try {
      return htmlPage(confirmRefundPage(context, previewRefund(detail, amount)));
    } catch (error) {
      if (!(error instanceof ActionRefused)) throw error;
      return htmlPage(transactionPage(context, { amount, problem: error.problem }), error.status);
    }
  },
);
