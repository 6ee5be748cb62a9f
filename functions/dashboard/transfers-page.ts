import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { recentTransfers, sentTransfer, stepUpThresholdOf } from '#shared/operations/dashboard-transfers.ts';
import { transfersPage } from '#shared/pages/dashboard-transfers.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.transfersPage,
  async (request, member, session) => {
    const [transfers, thresholdCents, sent] = await Promise.all([
      recentTransfers(member),
      stepUpThresholdOf(member.businessId),
      sentTransfer(member, request.query.sent),
    ]);
    return htmlPage(
      transfersPage({
        ...request,
        pageUrl: `${request.baseUrl}/dashboard/transfers`,
        csrfToken: session.csrfToken,
        transfers,
        thresholdCents,
        canSend: roleAllows(member.role, 'sendMoney'),
        canSetThreshold: roleAllows(member.role, 'setStepUpThreshold'),
        sentStatus: sent?.status,
        thresholdSaved: request.query.threshold === 'saved',
      }),
    );
  },
);
