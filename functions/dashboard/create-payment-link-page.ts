import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import {
  checkLinkForm,
  createLinkFor,
  type NewLinkForm,
  storesOf,
} from '#shared/operations/dashboard-payment-links.ts';
import { newLinkPage } from '#shared/pages/dashboard-payment-links.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardPaymentLinkEndpoints.createPaymentLinkPage,
  async (request, member, session) => {
    const { storeId, title, amount, reusable } = request.fields;
    const form: NewLinkForm = { storeId, title, amount, reusable: reusable === 'true' };
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
  },
);
