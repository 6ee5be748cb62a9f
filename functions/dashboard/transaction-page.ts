import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { transactionDetailOf } from '#shared/operations/dashboard-transactions.ts';
import { transactionPage, transactionPageContextOf } from '#shared/pages/dashboard-transaction.ts';

export const handler = pageHandler(
  'transactionPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    const detail = await transactionDetailOf(member, request.params.transactionId ?? '', request.query.at);
    const done = request.query.done;
    return htmlPage(
      transactionPage(transactionPageContextOf(request, session.csrfToken, member.role, detail), {
        notice: done === 'cancelled' || done === 'refunded' ? done : undefined,
      }),
    );
  }),
  dashboardPageOptions,
);
