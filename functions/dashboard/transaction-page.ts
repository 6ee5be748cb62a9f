import { dashboardTransactionEndpoints } from '#shared/api/dashboard-transactions.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { transactionDetailOf } from '#shared/operations/dashboard-transactions.ts';
import { transactionPage, transactionPageContextOf } from '#shared/pages/dashboard-transaction.ts';

export const handler = dashboardPage(
  dashboardTransactionEndpoints.transactionPage,
  async (request, member, session) => {
    const detail = await transactionDetailOf(member, request.params.transactionId ?? '', request.query.at);
    const done = request.query.done;
    return htmlPage(
      transactionPage(transactionPageContextOf(request, session.csrfToken, member.role, detail), {
        notice: done === 'cancelled' || done === 'refunded' ? done : undefined,
      }),
    );
  },
);
