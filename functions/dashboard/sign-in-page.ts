import { dashboardPageOptions, withoutSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { phonePage } from '#shared/pages/dashboard-sign-in.ts';

export const handler = pageHandler(
  'signInPage',
  withoutSession(async (request) => htmlPage(phonePage(request))),
  dashboardPageOptions,
);
