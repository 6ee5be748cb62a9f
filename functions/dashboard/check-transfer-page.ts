import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import {
  checkTransferForm,
  confirmStepFor,
  sendMoneyOverview,
  transferFormOf,
} from '#shared/operations/dashboard-transfers.ts';
import { checkTransferPage, stepUpStateOf, stepUpStatus } from '#shared/pages/dashboard-transfer-check.ts';
import { transferFormPage } from '#shared/pages/dashboard-transfers.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.checkTransferPage,
  async (request, member, session) => {
    const form = transferFormOf(request.fields);
    const checked = await checkTransferForm(member, form);
    const context = { ...request, csrfToken: session.csrfToken };
    if ('problems' in checked) {
      const { stores, contacts } = await sendMoneyOverview(member);
      return htmlPage(
        transferFormPage(
          { ...context, pageUrl: `${request.baseUrl}/dashboard/transfers/new`, stores, contacts },
          form,
          checked.problems,
        ),
        400,
      );
    }
    const { draft } = checked;
    const { idempotencyKey, started } = await confirmStepFor(member, draft, request);
    const stepUp = stepUpStateOf(started);
    return htmlPage(
      checkTransferPage({ ...context, pageUrl: `${request.baseUrl}/dashboard/transfers/new` }, form, draft, {
        idempotencyKey,
        stepUp,
      }),
      stepUpStatus(stepUp),
    );
  },
);
