import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import {
  checkLinkForm,
  createLinkFor,
  type NewLinkForm,
  storesOf,
} from '#shared/operations/dashboard-payment-links.ts';
import { newLinkPage } from '#shared/pages/dashboard-payment-links.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'createPaymentLinkPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageLinks');
    const form: NewLinkForm = {
      storeId: request.form.storeId ?? '',
      title: request.form.title ?? '',
      amount: request.form.amount ?? '',
      reusable: request.form.reusable === 'true',
    };
    const stores = await storesOf(member);
    const { errors, amountCents } = checkLinkForm(form, stores);
    if (amountCents === undefined) {
      return htmlPage(
        newLinkPage(
          {
            ...request,
            pageUrl: `${request.baseUrl}/dashboard/payment-links/new`,
            csrfToken: session.csrfToken,
            stores,
          },
          { ...form, errors },
        ),
        400,
      );
    }
    const link = await createLinkFor(member, form, amountCents, request.sourceIp);
    return redirectTo(dashboardUrl(request, `/payment-links/${link.id}`));
  }),
  dashboardPageOptions,
);
