import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { isProviderCode } from '#shared/domain/payment-methods.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { OperatorUnavailable } from '#shared/errors/providers.ts';
import { BadRequest, IdempotencyKeyReused } from '#shared/errors/request.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import {
  checkTransferForm,
  confirmTransfer,
  memberPhone,
  sendMoneyOverview,
  startStepUp,
  transferFormOf,
} from '#shared/operations/dashboard-transfers.ts';
import {
  checkTransferPage,
  type StepUpState,
  stepUpStateOf,
  stepUpStatus,
  transferRefusedPage,
} from '#shared/pages/dashboard-transfer-check.ts';
import { transferFormPage } from '#shared/pages/dashboard-transfers.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTransferEndpoints.confirmTransferPage,
  async (request, member, session) => {
    const form = transferFormOf(request.fields);
    const { idempotencyKey, attemptId, code } = request.fields;
    if (!/^[0-9a-f-]{36}$/.test(idempotencyKey)) throw new BadRequest('The confirm form has no key');
    // The details are checked again as posted (a hidden field can be changed); the balance is the
    // operation's to guard, so a replay of a form already sent still gets its first answer.
    const checked = await checkTransferForm(member, form, { checkBalance: false });
    const context = {
      ...request,
      csrfToken: session.csrfToken,
      pageUrl: `${request.baseUrl}/dashboard/transfers/new`,
    };
    if ('problems' in checked) {
      const { stores, contacts } = await sendMoneyOverview(member);
      return htmlPage(transferFormPage({ ...context, stores, contacts }, form, checked.problems), 400);
    }
    const { draft } = checked;
    const again = (stepUp: StepUpState, status: number) =>
      htmlPage(checkTransferPage(context, form, draft, { idempotencyKey, stepUp }), status);
    if (draft.needsStepUp && !attemptId) {
      // The threshold came down since the check step: the code is asked for now.
      const stepUp = stepUpStateOf(await startStepUp(member, draft, idempotencyKey, request));
      return again(stepUp, stepUpStatus(stepUp));
    }
    try {
      const result = await confirmTransfer(idempotent, member, draft, {
        idempotencyKey,
        attemptId,
        code,
        sourceIp: request.sourceIp,
        baseUrl: request.baseUrl,
        context: request.context,
      });
      if (result.outcome === 'sent') {
        // A withdrawal goes back to the withdrawals page, with its notice.
        const list = draft.payoutAccountId ? '/withdrawals' : '/transfers';
        return redirectTo(
          `${dashboardUrl(request, list)}${request.languagePinned ? '&' : '?'}sent=${result.transferId}`,
        );
      }
      if (result.outcome === 'code_ended') return again({ kind: 'ended' }, 400);
      const phone = (await memberPhone(member)) ?? '';
      return again(
        result.outcome === 'code_wrong'
          ? { kind: 'code', attemptId, phone, error: 'wrong', triesLeft: result.triesLeft }
          : { kind: 'code', attemptId, phone, error: 'malformed' },
        400,
      );
    } catch (error) {
      if (error instanceof InsufficientBalance)
        return htmlPage(transferRefusedPage(request, { kind: 'insufficient' }), 422);
      if (error instanceof IdempotencyKeyReused)
        return htmlPage(transferRefusedPage(request, { kind: 'reused' }), 422);
      // Down between the check and the confirm: nothing was written, nothing sent.
      if (error instanceof OperatorUnavailable && isProviderCode(error.paymentMethod))
        return htmlPage(transferRefusedPage(request, { kind: 'down', provider: error.paymentMethod }), 503);
      throw error;
    }
  },
);
