import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { saveWebhookForm, webhookFormOf, webhooksOverview } from '#shared/operations/dashboard-webhooks.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { webhookSecretPage, webhooksPage } from '#shared/pages/dashboard-webhooks.ts';

export const handler = pageHandler(
  'saveWebhookPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageWebhooks');
    const form = webhookFormOf(request.form);
    const saved = await saveWebhookForm(member, form, request.sourceIp);
    const pageUrl = `${request.baseUrl}/dashboard/webhooks`;
    if (saved.outcome === 'created')
      return htmlPage(webhookSecretPage({ ...request, pageUrl }, saved.secret, 'created'));
    if (saved.outcome === 'changed') return redirectTo(dashboardUrl(request, '/webhooks'));
    const state = {
      ...form,
      errors: saved.outcome === 'invalid' ? saved.errors : [],
      exists: saved.outcome === 'exists',
    };
    return htmlPage(
      webhooksPage(
        {
          ...request,
          ...(await webhooksOverview(member)),
          pageUrl,
          csrfToken: session.csrfToken,
          canManage: true,
        },
        state,
      ),
      saved.outcome === 'exists' ? 409 : 400,
    );
  }),
  { ...dashboardPageOptions, maxFormFieldChars: 2048 },
);
