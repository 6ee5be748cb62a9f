import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { keepToShowOnce } from '#shared/http/shown-once.ts';
import { rotateWebhookSecret } from '#shared/operations/dashboard-webhooks.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import type { MadeSecret } from '#shared/pages/dashboard-webhooks.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.rotateWebhookSecretPage,
  async (request, member, session) => {
    const secret = await rotateWebhookSecret(member, request.fields.subscriptionId, request.sourceIp);
    // Post, then redirect: the webhooks page shows the secret once; a reload makes no other.
    await keepToShowOnce(request, session, 'webhook-secret', {
      secret,
      made: 'rotated',
    } satisfies MadeSecret);
    return redirectTo(withNotice(dashboardUrl(request, '/webhooks'), 'secret', 'rotated'));
  },
);
