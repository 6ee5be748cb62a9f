import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { contactsOf } from '#shared/operations/contacts.ts';
import { callerForMember, requireAction } from '#shared/operations/dashboard-access.ts';
import { addContactFor } from '#shared/operations/dashboard-contacts.ts';
import { contactsPage } from '#shared/pages/dashboard-contacts.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'addContactPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'sendMoney');
    const form = {
      name: (request.form.name ?? '').trim(),
      paymentMethod: (request.form.paymentMethod ?? '').trim(),
      number: (request.form.number ?? '').trim(),
    };
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
        },
        { ...form, problems: added.problems },
      ),
      400,
    );
  }),
  dashboardPageOptions,
);
