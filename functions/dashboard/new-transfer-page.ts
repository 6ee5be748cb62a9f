import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { sendMoneyOverview, transferFormOf } from '#shared/operations/dashboard-transfers.ts';
import { transferFormPage } from '#shared/pages/dashboard-transfers.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.newTransferPage,
  async (request, member, session) => {
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
  },
);
