import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { contactsOf } from '#shared/operations/contacts.ts';
import { callerForMember, requireAction } from '#shared/operations/dashboard-access.ts';
import { contactsPage } from '#shared/pages/dashboard-contacts.ts';

export const handler = pageHandler(
  'contactsPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    const contacts = await contactsOf(callerForMember(member));
    const added = request.query.added;
    return htmlPage(
      contactsPage({
        ...request,
        pageUrl: `${request.baseUrl}/dashboard/contacts`,
        csrfToken: session.csrfToken,
        contacts,
        canManage: roleAllows(member.role, 'sendMoney'),
        notice: request.query.removed ? { removed: true } : added ? { added } : undefined,
      }),
    );
  }),
  dashboardPageOptions,
);
