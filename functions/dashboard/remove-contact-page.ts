import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { removeContactFor } from '#shared/operations/dashboard-contacts.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'removeContactPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'sendMoney');
    await removeContactFor(member, request.params.contactId ?? '', request.sourceIp);
    return redirectTo(`${dashboardUrl(request, '/contacts')}${request.languagePinned ? '&' : '?'}removed=1`);
  }),
  dashboardPageOptions,
);
