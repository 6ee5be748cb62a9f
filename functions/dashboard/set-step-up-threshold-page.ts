import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import {
  recentTransfers,
  setStepUpThreshold,
  stepUpThresholdOf,
} from '#shared/operations/dashboard-transfers.ts';
import { transfersPage } from '#shared/pages/dashboard-transfers.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'setStepUpThresholdPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'setStepUpThreshold');
    const saved = await setStepUpThreshold(member, request.form.threshold ?? '', request.sourceIp);
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
  }),
  dashboardPageOptions,
);
