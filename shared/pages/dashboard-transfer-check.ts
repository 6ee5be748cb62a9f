import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { StepUpStart, TransferDraft, TransferForm } from '#shared/operations/dashboard-transfers.ts';
import { errorSummary, field } from '#shared/pages/components.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { identifierText, money, page, sendMoneyText } from '#shared/pages/dashboard-transfers.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { formatAmount, maskPhone } from '#shared/pages/format.ts';
import { html } from '#shared/pages/html.ts';
import { providerNames } from '#shared/pages/messages.ts';

/**
 * The send-money check step (issue 35 split it from the form's module): what leaves the store, the
 * step-up code when one is asked, and a refusal of the whole transfer.
 */
/** The form's fields as hidden inputs: the confirm form posts exactly what was checked. */
const hiddenFields = (state: TransferForm) =>
  (Object.keys(state) as (keyof TransferForm)[]).map(
    (name) => html`<input type="hidden" name="${name}" value="${state[name]}">`,
  );

export interface CheckPageContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
}

export type StepUpState =
  | { kind: 'none' }
  | { kind: 'code'; attemptId: string; phone: string; error?: 'wrong' | 'malformed'; triesLeft?: number }
  | { kind: 'ended' }
  | { kind: 'limited' }
  | { kind: 'no_phone' };

/** What the page shows of a step-up code: its field once sent, or why none was (none needed). */
export const stepUpStateOf = (started: StepUpStart | undefined): StepUpState =>
  !started
    ? { kind: 'none' }
    : started.outcome === 'sent'
      ? { kind: 'code', attemptId: started.attemptId, phone: started.phone }
      : { kind: started.outcome };

/** The status of a page showing `stepUp`: 429 when no more codes may be sent now. */
export const stepUpStatus = (stepUp: StepUpState) => (stepUp.kind === 'limited' ? 429 : 200);

/** "Check your answers": what leaves the store, then the one button that sends it. */
export function checkTransferPage(
  context: CheckPageContext,
  state: TransferForm,
  draft: TransferDraft,
  confirm: { idempotencyKey: string; stepUp: StepUpState },
): string {
  const t = sendMoneyText(context.language);
  const { stepUp } = confirm;
  const currency = draft.store.currency;
  // A withdrawal is changed on its own page, whose form is short enough to fill again.
  const changeUrl =
    state.to === 'account'
      ? dashboardUrl(context, '/withdrawals')
      : `${dashboardUrl(context, '/transfers/new')}${context.languagePinned ? '&' : '?'}${new URLSearchParams({ ...state }).toString()}`;
  const codeError =
    stepUp.kind === 'code' && stepUp.error === 'wrong'
      ? t.codeWrong(stepUp.triesLeft ?? 0)
      : stepUp.kind === 'code' && stepUp.error === 'malformed'
        ? t.codeMalformed
        : undefined;
  const refusal =
    stepUp.kind === 'ended'
      ? t.codeEnded
      : stepUp.kind === 'limited'
        ? t.limited
        : stepUp.kind === 'no_phone'
          ? t.noPhone
          : undefined;
  const canSend = stepUp.kind === 'none' || stepUp.kind === 'code';
  return page(
    context,
    t.checkTitle,
    html`<h1>${t.checkTitle}</h1>
${errorSummary(t.errorSummary, codeError ? [{ field: 'code', message: codeError }] : [])}
${refusal && html`<div class="alert" role="alert"><p>${refusal}</p></div>`}
<p data-testid="beneficiary"><strong>${draft.beneficiaryName}</strong>${draft.method !== 'svc' ? html` · ${providerNames[draft.method as ProviderCode] ?? draft.method} · <span class="nowrap">${identifierText(draft.beneficiaryIdentifier)}</span>` : ''}<br><span class="muted">${t.fromStore(draft.store.name)}</span></p>
<dl class="facts" data-testid="check">
<dt>${t.receives}</dt><dd data-testid="amount"><strong>${money(draft.amountCents, currency)}</strong></dd>
<dt>${t.fee}</dt><dd data-testid="fee">${money(draft.feeCents, currency)}</dd>
<dt>${t.totalFrom(draft.store.name)}</dt><dd data-testid="total">${money(draft.totalCents, currency)}</dd>
${draft.description && html`<dt>${t.description}</dt><dd>${draft.description}</dd>`}
</dl>
${
  canSend &&
  html`<form method="post" action="${dashboardUrl(context, '/transfers/confirm')}" novalidate>
${csrfField(context.csrfToken)}
${hiddenFields(state)}
<input type="hidden" name="idempotencyKey" value="${confirm.idempotencyKey}">
${
  stepUp.kind === 'code' &&
  html`<input type="hidden" name="attemptId" value="${stepUp.attemptId}">
${field({ name: 'code', label: t.code(maskPhone(stepUp.phone)), hint: t.codeHint, error: codeError, attributes: html` inputmode="numeric" autocomplete="one-time-code" maxlength="6"` })}`
}
<button class="button" type="submit">${t.sendButton(formatAmount(draft.amountCents, currency))}</button>
</form>`
}
${
  stepUp.kind === 'ended' &&
  html`<form method="post" action="${dashboardUrl(context, '/transfers/new')}">
${csrfField(context.csrfToken)}
${hiddenFields(state)}
<button class="button" type="submit">${t.newCode}</button>
</form>`
}
<p class="note"><a href="${changeUrl}">${t.change}</a> · <a href="${dashboardUrl(context, '/transfers')}">${t.cancel}</a></p>`,
  );
}

/** A transfer refused as a whole (the balance moved meanwhile, a reused form): why, and the way back. */
export function transferRefusedPage(
  context: DashboardPageContext,
  reason: { kind: 'insufficient' } | { kind: 'reused' } | { kind: 'down'; provider: ProviderCode },
): string {
  const t = sendMoneyText(context.language);
  const why =
    reason.kind === 'insufficient'
      ? t.insufficientNow
      : reason.kind === 'down'
        ? t.operatorDown(providerNames[reason.provider])
        : t.reused;
  return page(
    context,
    t.refusedTitle,
    html`<h1>${t.refusedTitle}</h1>
<div class="alert" role="alert"><p>${why}</p></div>
<p><a href="${dashboardUrl(context, '/transfers')}">${t.back}</a></p>`,
  );
}
