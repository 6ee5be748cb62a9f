import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { keepToShowOnce } from '#shared/http/shown-once.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { rotateWebhookSecret } from '#shared/operations/dashboard-webhooks.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import type { MadeSecret } from '#shared/pages/dashboard-webhooks.ts';

export const handler = pageHandler(
  'rotateWebhookSecretPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageWebhooks');
    const secret = await rotateWebhookSecret(member, request.form.subscriptionId ?? '', request.sourceIp);
    // Post, then redirect: the webhooks page shows the secret once; a reload makes no other.
    await keepToShowOnce(request, session, 'webhook-secret', {
      secret,
      made: 'rotated',
    } satisfies MadeSecret);
    return redirectTo(withNotice(dashboardUrl(request, '/webhooks'), 'secret', 'rotated'));
  }),
  dashboardPageOptions,
);
