import { randomUUID } from 'node:crypto';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import {
  checkTransferForm,
  sendMoneyOverview,
  startStepUp,
  transferFormOf,
} from '#shared/operations/dashboard-transfers.ts';
import { checkTransferPage, type StepUpState, transferFormPage } from '#shared/pages/dashboard-transfers.ts';

export const handler = pageHandler(
  'checkTransferPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'sendMoney');
    const form = transferFormOf(request.form);
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
    // The confirm form's key: the API's idempotency makes its second post the first one's answer.
    const idempotencyKey = randomUUID();
    let stepUp: StepUpState = { kind: 'none' };
    if (draft.needsStepUp) {
      const started = await startStepUp(member, draft, idempotencyKey, request);
      stepUp =
        started.outcome === 'sent'
          ? { kind: 'code', attemptId: started.attemptId, phone: started.phone }
          : { kind: started.outcome };
    }
    return htmlPage(
      checkTransferPage({ ...context, pageUrl: `${request.baseUrl}/dashboard/transfers/new` }, form, draft, {
        idempotencyKey,
        stepUp,
      }),
      stepUp.kind === 'limited' ? 429 : 200,
    );
  }),
  dashboardPageOptions,
);
