import { dashboardPageOptions, withoutSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { codePage } from '#shared/pages/dashboard-sign-in.ts';

export const handler = pageHandler(
  'signInCodePage',
  withoutSession(async (request) => htmlPage(codePage(request))),
  dashboardPageOptions,
);
