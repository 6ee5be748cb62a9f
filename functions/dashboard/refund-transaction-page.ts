import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { ActionRefused, previewRefund } from '#shared/operations/dashboard-payment-actions.ts';
import { transactionDetailOf } from '#shared/operations/dashboard-transactions.ts';
import {
  confirmRefundPage,
  transactionPage,
  transactionPageContextOf,
} from '#shared/pages/dashboard-transaction.ts';

export const handler = pageHandler(
  'refundTransactionPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'refund');
    const detail = await transactionDetailOf(member, request.params.transactionId ?? '', request.query.at);
    const context = transactionPageContextOf(request, session.csrfToken, member.role, detail);
    const amount = request.form.amount ?? '';
    try {
      return htmlPage(confirmRefundPage(context, previewRefund(detail, amount)));
    } catch (error) {
      if (!(error instanceof ActionRefused)) throw error;
      return htmlPage(transactionPage(context, { amount, problem: error.problem }), error.status);
    }
  }),
  dashboardPageOptions,
);
