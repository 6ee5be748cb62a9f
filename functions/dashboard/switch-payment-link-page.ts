import { PaymentLinkAlreadyUsed } from '#shared/errors/payment-links.ts';
import { BadRequest } from '#shared/errors/request.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { linkOf, paymentsOfLink, switchLinkFor } from '#shared/operations/dashboard-payment-links.ts';
import { paymentLinkPageWithQr } from '#shared/pages/dashboard-payment-links.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'switchPaymentLinkPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageLinks');
    const { active } = request.form;
    if (active !== 'true' && active !== 'false') throw new BadRequest('The form says neither on nor off');
    const linkId = request.params.linkId ?? '';
    try {
      const link = await switchLinkFor(member, linkId, active === 'true', request.sourceIp);
      return redirectTo(dashboardUrl(request, `/payment-links/${link.id}`));
    } catch (error) {
      if (!(error instanceof PaymentLinkAlreadyUsed)) throw error;
      // A paid single-use link: its page again, saying why it stays off.
      const link = await linkOf(member, linkId);
      const page = await paymentLinkPageWithQr({
        ...request,
        csrfToken: session.csrfToken,
        link,
        payments: await paymentsOfLink(link),
        canManage: true,
        alreadyUsed: true,
      });
      return htmlPage(page, 409);
    }
  }),
  dashboardPageOptions,
);
