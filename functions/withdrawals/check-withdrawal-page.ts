import { withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { checkTransferForm, confirmStepFor } from '#shared/operations/dashboard-transfers.ts';
import { withdrawalForm, withdrawalsOverview } from '#shared/operations/dashboard-withdrawals.ts';
import { payoutAccountCoolingSeconds } from '#shared/operations/payout-accounts.ts';
import { checkTransferPage, stepUpStateOf, stepUpStatus } from '#shared/pages/dashboard-transfer-check.ts';
import { withdrawalsPage } from '#shared/pages/dashboard-withdrawals.ts';

/** A withdrawal checked as a transfer to the account; its confirm step is send money's. */
export const handler = dashboardPage(
  withdrawalEndpoints.checkWithdrawalPage,
  async (request, member, session) => {
    const form = await withdrawalForm(member, request.fields);
    const checked = await checkTransferForm(member, form);
    const context = { ...request, csrfToken: session.csrfToken };
    if ('problems' in checked) {
      return htmlPage(
        withdrawalsPage(context, await withdrawalsOverview(member), {
          withdrawal: { form: request.fields, problems: checked.problems },
          coolingHours: Math.round(payoutAccountCoolingSeconds() / 3600),
        }),
        400,
      );
    }
    const { draft } = checked;
    const { idempotencyKey, started } = await confirmStepFor(member, draft, request);
    const stepUp = stepUpStateOf(started);
    return htmlPage(
      checkTransferPage({ ...context, pageUrl: `${request.baseUrl}/dashboard/withdrawals` }, form, draft, {
        idempotencyKey,
        stepUp,
      }),
      stepUpStatus(stepUp),
    );
  },
);
