import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { linkOf, paymentsOfLink } from '#shared/operations/dashboard-payment-links.ts';
import { paymentLinkPageWithQr } from '#shared/pages/dashboard-payment-links.ts';

export const handler = pageHandler(
  'paymentLinkPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    const link = await linkOf(member, request.params.linkId ?? '');
    return htmlPage(
      await paymentLinkPageWithQr({
        ...request,
        csrfToken: session.csrfToken,
        link,
        payments: await paymentsOfLink(link),
        canManage: roleAllows(member.role, 'manageLinks'),
      }),
    );
  }),
  dashboardPageOptions,
);
