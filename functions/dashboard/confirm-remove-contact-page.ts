import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { liveContact } from '#shared/operations/contacts.ts';
import { callerForMember } from '#shared/operations/dashboard-access.ts';
import { confirmRemoveContactPage } from '#shared/pages/dashboard-contacts.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.confirmRemoveContactPage,
  async (request, member, session) => {
    const contact = await liveContact(callerForMember(member), request.params.contactId ?? '');
    return htmlPage(
      confirmRemoveContactPage(
        {
          ...request,
          pageUrl: `${request.baseUrl}/dashboard/contacts/${contact.id}/remove`,
          csrfToken: session.csrfToken,
        },
        contact,
      ),
    );
  },
);
