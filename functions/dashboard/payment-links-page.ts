import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { linksOverview } from '#shared/operations/dashboard-payment-links.ts';
import { paymentLinksPage } from '#shared/pages/dashboard-payment-links.ts';

export const handler = dashboardPage(
  dashboardPaymentLinkEndpoints.paymentLinksPage,
  async (request, member) => {
    const asked = Number.parseInt(request.query.page ?? '1', 10);
    const overview = await linksOverview(member, Number.isSafeInteger(asked) && asked > 0 ? asked : 1);
    return htmlPage(
      paymentLinksPage({
        ...request,
        pageUrl: `${request.baseUrl}/dashboard/payment-links`,
        links: overview.data,
        total: overview.total,
        currentPage: overview.currentPage,
        perPage: overview.perPage,
        canManage: roleAllows(member.role, 'manageLinks'),
      }),
    );
  },
);
