import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import {
  recentTransfers,
  setStepUpThreshold,
  stepUpThresholdOf,
} from '#shared/operations/dashboard-transfers.ts';
import { transfersPage } from '#shared/pages/dashboard-transfers.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.setStepUpThresholdPage,
  async (request, member, session) => {
    const saved = await setStepUpThreshold(member, request.fields.threshold, request.sourceIp);
    if (saved !== undefined)
      return redirectTo(
        `${dashboardUrl(request, '/transfers')}${request.languagePinned ? '&' : '?'}threshold=saved`,
      );
    const [transfers, thresholdCents] = await Promise.all([
      recentTransfers(member),
      stepUpThresholdOf(member.businessId),
    ]);
    return htmlPage(
      transfersPage({
        ...request,
        pageUrl: `${request.baseUrl}/dashboard/transfers`,
        csrfToken: session.csrfToken,
        transfers,
        thresholdCents,
        canSend: roleAllows(member.role, 'sendMoney'),
        canSetThreshold: true,
        thresholdError: true,
      }),
      400,
    );
  },
);
