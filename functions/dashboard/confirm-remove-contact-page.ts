import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { liveContact } from '#shared/operations/contacts.ts';
import { callerForMember, requireAction } from '#shared/operations/dashboard-access.ts';
import { confirmRemoveContactPage } from '#shared/pages/dashboard-contacts.ts';

export const handler = pageHandler(
  'confirmRemoveContactPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'sendMoney');
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
  }),
  dashboardPageOptions,
);
