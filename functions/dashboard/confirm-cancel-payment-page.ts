import { dashboardTransactionEndpoints } from '#shared/api/dashboard-transactions.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { actionablePayment, transactionDetailOf } from '#shared/operations/dashboard-transactions.ts';
import {
  confirmCancelPage,
  transactionPage,
  transactionPageContextOf,
} from '#shared/pages/dashboard-transaction.ts';

export const handler = dashboardPage(
  dashboardTransactionEndpoints.confirmCancelPaymentPage,
  async (request, member, session) => {
    const detail = await transactionDetailOf(member, request.params.transactionId ?? '', request.query.at);
    const context = transactionPageContextOf(request, session.csrfToken, member.role, detail);
    // Ended meanwhile (paid, expired, cancelled elsewhere): its page, saying so; nothing to ask.
    if (actionablePayment(detail)?.status !== 'pending')
      return htmlPage(transactionPage(context, { problem: { kind: 'not_cancellable' } }), 409);
    return htmlPage(confirmCancelPage(context));
  },
);
