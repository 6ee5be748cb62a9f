import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import {
  readAutomaticSettlementForm,
  setAutomaticSettlement,
  turnOffAutomaticSettlement,
} from '#shared/operations/automatic-settlement.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { withdrawalsOverview } from '#shared/operations/dashboard-withdrawals.ts';
import { payoutAccountCoolingSeconds } from '#shared/operations/payout-accounts.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { withdrawalsPage } from '#shared/pages/dashboard-withdrawals.ts';

/** The owner's: a store's automatic settlement set (store, account, hour, amount kept) or turned off. */
export const handler = pageHandler(
  'automaticSettlementPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'managePayoutAccounts');
    const back = (notice: 'on' | 'off') =>
      redirectTo(
        `${dashboardUrl(request, '/withdrawals')}${request.languagePinned ? '&' : '?'}automatic=${notice}#automatic`,
      );
    if (request.form.action === 'off') {
      await turnOffAutomaticSettlement(member, (request.form.storeId ?? '').trim(), request);
      return back('off');
    }
    const read = readAutomaticSettlementForm(request.form);
    if ('problems' in read) {
      return htmlPage(
        withdrawalsPage({ ...request, csrfToken: session.csrfToken }, await withdrawalsOverview(member), {
          automatic: { form: { ...request.form }, problems: read.problems },
          coolingHours: Math.round(payoutAccountCoolingSeconds() / 3600),
        }),
        400,
      );
    }
    await setAutomaticSettlement(member, read.setting, request);
    return back('on');
  }),
  dashboardPageOptions,
);
