import { unlessMoved } from '#shared/http/dashboard-escrow-pages.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { releaseEscrowOf } from '#shared/operations/dashboard-escrows.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'releaseEscrowPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageEscrows');
    const escrowId = request.params.escrowId ?? '';
    return unlessMoved(member, request, escrowId, async () => {
      await releaseEscrowOf(member, escrowId, request.sourceIp);
      return redirectTo(dashboardUrl(request, '/escrows'));
    });
  }),
  dashboardPageOptions,
);
