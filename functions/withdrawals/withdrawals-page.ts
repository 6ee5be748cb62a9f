import { getPayoutAccount } from '#shared/data/payout-account.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { sentTransfer } from '#shared/operations/dashboard-transfers.ts';
import { withdrawalsOverview } from '#shared/operations/dashboard-withdrawals.ts';
import { payoutAccountCoolingSeconds } from '#shared/operations/payout-accounts.ts';
import { withdrawalsPage } from '#shared/pages/dashboard-withdrawals.ts';

export const handler = pageHandler(
  'withdrawalsPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    const { sent, added, removed, automatic } = request.query;
    const [overview, sentOne, addedOne] = await Promise.all([
      withdrawalsOverview(member),
      sentTransfer(member, sent),
      added && /^[0-9a-f-]{36}$/.test(added) ? getPayoutAccount(member.businessId, added) : undefined,
    ]);
    return htmlPage(
      withdrawalsPage({ ...request, csrfToken: session.csrfToken }, overview, {
        sent: sentOne,
        added: addedOne,
        removed: removed === '1',
        automaticNotice: automatic === 'on' || automatic === 'off' ? automatic : undefined,
        coolingHours: Math.round(payoutAccountCoolingSeconds() / 3600),
      }),
    );
  }),
  dashboardPageOptions,
);
