import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { linkOf, paymentsOfLink } from '#shared/operations/dashboard-payment-links.ts';
import { paymentLinkPageWithQr } from '#shared/pages/dashboard-payment-links.ts';

export const handler = dashboardPage(
  dashboardPaymentLinkEndpoints.paymentLinkPage,
  async (request, member, session) => {
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
  },
);
