import { dashboardPageOptions, dashboardUrl, withoutSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { codePage } from '#shared/pages/dashboard-sign-in.ts';

export const handler = pageHandler(
  'signInCodePage',
  withoutSession(async (request) =>
    htmlPage(
      codePage({
        language: request.language,
        action: dashboardUrl(request, '/sign-in/code'),
        newCodeUrl: dashboardUrl(request, '/sign-in'),
      }),
    ),
  ),
  dashboardPageOptions,
);
