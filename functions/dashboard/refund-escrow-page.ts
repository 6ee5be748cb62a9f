import { dashboardEscrowEndpoints } from '#shared/api/dashboard-escrows.ts';
import { unlessMoved } from '#shared/http/dashboard-escrow-pages.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { refundEscrowOf } from '#shared/operations/dashboard-escrows.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { escrowRefundRefusedPage } from '#shared/pages/dashboard-escrows.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(dashboardEscrowEndpoints.refundEscrowPage, async (request, member) => {
  const escrowId = request.params.escrowId ?? '';
  return unlessMoved(member, request, escrowId, async () => {
    const refunded = await refundEscrowOf(member, escrowId, request.sourceIp);
    // Refused at once by the payer's provider: the escrow is held again, and the page says so.
    if (refunded.status === 'held') return htmlPage(escrowRefundRefusedPage(request), 502);
    return redirectTo(withNotice(dashboardUrl(request, '/escrows'), 'done', 'refunded'));
  });
});
