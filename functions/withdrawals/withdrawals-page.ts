import { withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { getPayoutAccount } from '#shared/data/payout-account.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { sentTransfer } from '#shared/operations/dashboard-transfers.ts';
import { withdrawalsOverview } from '#shared/operations/dashboard-withdrawals.ts';
import { payoutAccountCoolingSeconds } from '#shared/operations/payout-accounts.ts';
import { withdrawalsPage } from '#shared/pages/dashboard-withdrawals.ts';

export const handler = dashboardPage(
  withdrawalEndpoints.withdrawalsPage,
  async (request, member, session) => {
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
  },
);
