import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { contactsOf } from '#shared/operations/contacts.ts';
import { callerForMember } from '#shared/operations/dashboard-access.ts';
import { contactCountryOf } from '#shared/operations/dashboard-contacts.ts';
import { contactsPage } from '#shared/pages/dashboard-contacts.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.contactsPage,
  async (request, member, session) => {
    const contacts = await contactsOf(callerForMember(member));
    const added = request.query.added;
    return htmlPage(
      contactsPage({
        ...request,
        pageUrl: `${request.baseUrl}/dashboard/contacts`,
        csrfToken: session.csrfToken,
        contacts,
        canManage: roleAllows(member.role, 'sendMoney'),
        phoneCountry: await contactCountryOf(member),
        notice: request.query.removed ? { removed: true } : added ? { added } : undefined,
      }),
    );
  },
);
