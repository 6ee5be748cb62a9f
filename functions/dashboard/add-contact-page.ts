import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { contactsOf } from '#shared/operations/contacts.ts';
import { callerForMember } from '#shared/operations/dashboard-access.ts';
import { addContactFor, contactCountryOf } from '#shared/operations/dashboard-contacts.ts';
import { contactsPage } from '#shared/pages/dashboard-contacts.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.addContactPage,
  async (request, member, session) => {
    const { name, paymentMethod, number, phoneCountry } = request.fields;
    const form = { name, paymentMethod, number, phoneCountry };
    const added = await addContactFor(member, form, request.sourceIp);
    if ('contact' in added) {
      const query = new URLSearchParams({ added: added.contact.name }).toString();
      return redirectTo(`${dashboardUrl(request, '/contacts')}${request.languagePinned ? '&' : '?'}${query}`);
    }
    return htmlPage(
      contactsPage(
        {
          ...request,
          pageUrl: `${request.baseUrl}/dashboard/contacts`,
          csrfToken: session.csrfToken,
          contacts: await contactsOf(callerForMember(member)),
          canManage: true,
          phoneCountry: await contactCountryOf(member),
        },
        { ...form, problems: added.problems },
      ),
      400,
    );
  },
);
