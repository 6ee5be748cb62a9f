import { withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { payoutAccountLabel } from '#shared/domain/payout-accounts.ts';
import { BadRequest } from '#shared/errors/request.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { smsCountryOf } from '#shared/operations/dashboard-sms.ts';
import { memberPhone } from '#shared/operations/dashboard-transfers.ts';
import {
  confirmPayoutAccount,
  payoutAccountFormOf,
  removePayoutAccountFor,
  startPayoutAccountCode,
  withdrawalsOverview,
} from '#shared/operations/dashboard-withdrawals.ts';
import {
  checkPayoutAccount,
  payoutAccountCoolingSeconds,
  payoutAccountOf,
} from '#shared/operations/payout-accounts.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import {
  payoutAccountCodePage,
  removePayoutAccountPage,
  withdrawalsPage,
} from '#shared/pages/dashboard-withdrawals.ts';

/** The owner's: add an account (check, SMS code, confirm) or remove one (confirm first). */
export const handler = dashboardPage(
  withdrawalEndpoints.payoutAccountPage,
  async (request, member, session) => {
    const context = { ...request, csrfToken: session.csrfToken };
    const back = (query: string) =>
      redirectTo(`${dashboardUrl(request, '/withdrawals')}${request.languagePinned ? '&' : '?'}${query}`);
    const { action, id, attemptId, code } = request.fields;
    if (action === 'remove') {
      if (!/^[0-9a-f-]{36}$/.test(id)) throw new BadRequest('No account to remove');
      if (request.fields.confirm !== 'yes') {
        const account = await payoutAccountOf(member.businessId, id);
        return htmlPage(removePayoutAccountPage(context, { ...account, label: payoutAccountLabel(account) }));
      }
      await removePayoutAccountFor(member, id, request.sourceIp);
      return back('removed=1');
    }
    const input = payoutAccountFormOf(request.fields);
    // A national number is read in the business's first store's country (a Dakar shop's 77 …).
    const checked = checkPayoutAccount(input, await smsCountryOf(member));
    if ('problems' in checked) {
      return htmlPage(
        withdrawalsPage(context, await withdrawalsOverview(member), {
          account: { form: request.fields, problems: checked.problems },
          coolingHours: Math.round(payoutAccountCoolingSeconds() / 3600),
        }),
        400,
      );
    }
    if (action === 'check') {
      const started = await startPayoutAccountCode(member, checked.account, request);
      return htmlPage(
        payoutAccountCodePage(context, input, checked.account, started),
        started.outcome === 'limited' ? 429 : 200,
      );
    }
    const result = await confirmPayoutAccount(member, checked.account, {
      attemptId,
      code,
      sourceIp: request.sourceIp,
    });
    if (result.outcome === 'added') return back(`added=${result.account.id}`);
    const sent = { outcome: 'sent' as const, attemptId, phone: (await memberPhone(member)) ?? '' };
    return htmlPage(
      payoutAccountCodePage(
        context,
        input,
        checked.account,
        result.outcome === 'code_wrong'
          ? { ...sent, error: 'wrong', triesLeft: result.triesLeft }
          : { ...sent, error: result.outcome === 'code_malformed' ? 'malformed' : 'ended' },
      ),
      400,
    );
  },
);
