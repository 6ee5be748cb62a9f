import { withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import {
  readAutomaticSettlementForm,
  setAutomaticSettlement,
  turnOffAutomaticSettlement,
} from '#shared/operations/automatic-settlement.ts';
import { withdrawalsOverview } from '#shared/operations/dashboard-withdrawals.ts';
import { payoutAccountCoolingSeconds } from '#shared/operations/payout-accounts.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { withdrawalsPage } from '#shared/pages/dashboard-withdrawals.ts';

/** The owner's: a store's automatic settlement set (store, account, hour, amount kept) or turned off. */
export const handler = dashboardPage(
  withdrawalEndpoints.automaticSettlementPage,
  async (request, member, session) => {
    const back = (notice: 'on' | 'off') =>
      redirectTo(
        `${dashboardUrl(request, '/withdrawals')}${request.languagePinned ? '&' : '?'}automatic=${notice}#automatic`,
      );
    if (request.fields.action === 'off') {
      await turnOffAutomaticSettlement(member, request.fields.storeId, request);
      return back('off');
    }
    const read = readAutomaticSettlementForm(request.fields);
    if ('problems' in read) {
      return htmlPage(
        withdrawalsPage({ ...request, csrfToken: session.csrfToken }, await withdrawalsOverview(member), {
          automatic: { form: request.fields, problems: read.problems },
          coolingHours: Math.round(payoutAccountCoolingSeconds() / 3600),
        }),
        400,
      );
    }
    await setAutomaticSettlement(member, read.setting, request);
    return back('on');
  },
);
