import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { smsPageData } from '#shared/operations/dashboard-sms.ts';
import { smsPage } from '#shared/pages/dashboard-sms.ts';

export const handler = pageHandler(
  'smsPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    const page = Number.parseInt(request.query.page ?? '1', 10);
    return htmlPage(
      smsPage({
        ...request,
        ...(await smsPageData(member, Number.isSafeInteger(page) && page > 0 ? page : 1)),
        csrfToken: session.csrfToken,
        canSend: roleAllows(member.role, 'sendSms'),
      }),
    );
  }),
  dashboardPageOptions,
);
