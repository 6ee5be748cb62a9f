import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { keepToShowOnce } from '#shared/http/shown-once.ts';
import { saveWebhookForm, webhookFormOf, webhooksOverview } from '#shared/operations/dashboard-webhooks.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { type MadeSecret, webhooksPage } from '#shared/pages/dashboard-webhooks.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.saveWebhookPage,
  async (request, member, session) => {
    const form = webhookFormOf(request.fields);
    const saved = await saveWebhookForm(member, form, request.sourceIp);
    const pageUrl = `${request.baseUrl}/dashboard/webhooks`;
    if (saved.outcome === 'created') {
      // Post, then redirect: the webhooks page shows the secret once; a reload makes nothing.
      const made: MadeSecret = { secret: saved.secret, made: 'created' };
      await keepToShowOnce(request, session, 'webhook-secret', made);
      return redirectTo(withNotice(dashboardUrl(request, '/webhooks'), 'secret', 'created'));
    }
    if (saved.outcome === 'changed')
      return redirectTo(withNotice(dashboardUrl(request, '/webhooks'), 'changed', '1'));
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
  },
  { maxFormFieldChars: 2048 },
);
