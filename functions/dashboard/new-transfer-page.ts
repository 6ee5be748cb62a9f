import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { sendMoneyOverview, transferFormOf } from '#shared/operations/dashboard-transfers.ts';
import { transferFormPage } from '#shared/pages/dashboard-transfers.ts';

export const handler = pageHandler(
  'newTransferPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'sendMoney');
    const { stores, contacts } = await sendMoneyOverview(member);
    return htmlPage(
      transferFormPage(
        {
          ...request,
          pageUrl: `${request.baseUrl}/dashboard/transfers/new`,
          csrfToken: session.csrfToken,
          stores,
          contacts,
        },
        // "Change" on the confirm step, or "send money" beside a contact, comes back prefilled.
        transferFormOf(request.query),
      ),
    );
  }),
  dashboardPageOptions,
);
