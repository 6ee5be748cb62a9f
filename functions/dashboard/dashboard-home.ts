import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { businessesOf } from '#shared/operations/dashboard-sessions.ts';
import { dashboardNav } from '#shared/pages/dashboard-chrome.ts';
import { dashboardHomePage } from '#shared/pages/dashboard-home.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'dashboardHome',
  withSession(async (request, session) =>
    htmlPage(
      dashboardHomePage({
        language: request.language,
        pageUrl: `${request.baseUrl}/dashboard`,
        signOutUrl: dashboardUrl(request, '/sign-out'),
        csrfToken: session.csrfToken,
        businesses: await businessesOf(session),
        nav: dashboardNav(request, 'home'),
      }),
    ),
  ),
  dashboardPageOptions,
);
