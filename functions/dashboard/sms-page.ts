import { dashboardSmsEndpoints } from '#shared/api/dashboard-sms.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { smsPageData } from '#shared/operations/dashboard-sms.ts';
import { smsPage } from '#shared/pages/dashboard-sms.ts';

export const handler = dashboardPage(dashboardSmsEndpoints.smsPage, async (request, member, session) => {
  const page = Number.parseInt(request.query.page ?? '1', 10);
  return htmlPage(
    smsPage({
      ...request,
      ...(await smsPageData(member, Number.isSafeInteger(page) && page > 0 ? page : 1)),
      csrfToken: session.csrfToken,
      canSend: roleAllows(member.role, 'sendSms'),
    }),
  );
});
