import { dashboardEscrowEndpoints } from '#shared/api/dashboard-escrows.ts';
import { unlessMoved } from '#shared/http/dashboard-escrow-pages.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { escrowToConfirm } from '#shared/operations/dashboard-escrows.ts';
import { confirmEscrowPage, escrowMovedPage } from '#shared/pages/dashboard-escrows.ts';

export const handler = dashboardPage(
  dashboardEscrowEndpoints.confirmRefundEscrowPage,
  async (request, member, session) => {
    const escrowId = request.params.escrowId ?? '';
    return unlessMoved(member, request, escrowId, async () => {
      const listed = await escrowToConfirm(member, escrowId);
      if (listed.escrow.status !== 'held')
        return htmlPage(escrowMovedPage(request, listed.escrow.status), 409);
      return htmlPage(
        confirmEscrowPage(
          {
            ...request,
            pageUrl: `${request.baseUrl}/dashboard/escrows/${listed.escrow.id}/refund`,
            csrfToken: session.csrfToken,
          },
          'refund',
          listed,
        ),
      );
    });
  },
);
