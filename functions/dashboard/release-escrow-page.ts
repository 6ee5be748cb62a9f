import { dashboardEscrowEndpoints } from '#shared/api/dashboard-escrows.ts';
import { unlessMoved } from '#shared/http/dashboard-escrow-pages.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { releaseEscrowOf } from '#shared/operations/dashboard-escrows.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(dashboardEscrowEndpoints.releaseEscrowPage, async (request, member) => {
  const escrowId = request.params.escrowId ?? '';
  return unlessMoved(member, request, escrowId, async () => {
    await releaseEscrowOf(member, escrowId, request.sourceIp);
    return redirectTo(withNotice(dashboardUrl(request, '/escrows'), 'done', 'released'));
  });
});
