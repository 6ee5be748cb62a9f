import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { removeContactFor } from '#shared/operations/dashboard-contacts.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.removeContactPage,
  async (request, member) => {
    await removeContactFor(member, request.params.contactId ?? '', request.sourceIp);
    return redirectTo(`${dashboardUrl(request, '/contacts')}${request.languagePinned ? '&' : '?'}removed=1`);
  },
);
