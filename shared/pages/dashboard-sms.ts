import { maxBodyCharacters } from '#shared/api/messages.ts';
import type { Message, MessageStatus } from '#shared/data/message.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { Cents } from '#shared/domain/money.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import type {
  CheckedSms,
  SmsError,
  SmsField,
  SmsForm,
  SmsOverview,
} from '#shared/operations/dashboard-sms.ts';
import { smsPageLength } from '#shared/operations/dashboard-sms.ts';
import { errorSummary } from '#shared/pages/components.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { buySmsCreditForm, type CreditStore } from '#shared/pages/dashboard-sms-credit.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { dashboardTime, formatPhone } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { phoneCountryField, phoneCountryOf, phoneExamples, phoneField } from '#shared/pages/phone-country.ts';

/**
 * The SMS page (issue 26, item 6): the balance, the form that sends one (a check step shows its
 * segments against the balance before anything is charged), and the messages sent, newest first,
 * with their status.
 */
const text = {
  fr: {
    title: 'SMS',
    balance: (segments: number) => `Solde : ${segments} SMS`,
    buyFirst: 'Le solde est vide : achetez du crédit SMS pour envoyer des SMS et des demandes de paiement.',
    balanceHint:
      'Un SMS de plus de 160 caractères (70 avec des accents comme ê ou ç, ou un emoji) en coûte plusieurs.',
    to: 'Destinataire',
    body: 'Message',
    check: 'Continuer',
    errorSummary: 'Il y a un problème',
    errors: {
      to: {
        required: 'Saisissez le numéro du destinataire.',
      },
      body: {
        required: 'Écrivez le message.',
        max: `Le message ne doit pas dépasser ${maxBodyCharacters} caractères.`,
      },
    } as Record<SmsField, Partial<Record<SmsError['rule'], string>>>,
    checkTitle: 'Vérifiez le SMS',
    cost: (segments: number) => `Coût : ${segments} SMS, pris sur le solde.`,
    confirm: 'Envoyer le SMS',
    change: 'Modifier',
    emptyBalance: (segments: number, balance: number) =>
      `Solde SMS insuffisant : ce message coûte ${segments} SMS et le solde est de ${balance}. Rien n’a été envoyé ni débité.`,
    sent: 'SMS envoyés',
    none: 'Aucun SMS envoyé pour l’instant.',
    statuses: {
      pending: 'En cours d’envoi',
      sent: 'Envoyé',
      delivered: 'Remis',
      failed: 'Échec',
    } satisfies Record<MessageStatus, string>,
    segments: (count: number) => `${count} SMS`,
    newer: 'Plus récents',
    older: 'Plus anciens',
  },
  en: {
    title: 'SMS',
    balance: (segments: number) => `Balance: ${segments} SMS`,
    buyFirst: 'The balance is empty: buy SMS credit to send SMS and payment requests.',
    balanceHint: '160 characters an SMS, 70 with ê, ç or an emoji.',
    to: 'Recipient',
    body: 'Message',
    check: 'Continue',
    errorSummary: 'There is a problem',
    errors: {
      to: {
        required: 'Enter the recipient’s number.',
      },
      body: {
        required: 'Write the message.',
        max: `The message must be at most ${maxBodyCharacters} characters.`,
      },
    } as Record<SmsField, Partial<Record<SmsError['rule'], string>>>,
    checkTitle: 'Check the SMS',
    cost: (segments: number) => `Cost: ${segments} SMS, taken from the balance.`,
    confirm: 'Send the SMS',
    change: 'Change',
    emptyBalance: (segments: number, balance: number) =>
      `Not enough SMS balance: this message costs ${segments} SMS and the balance is ${balance}. Nothing was sent or charged.`,
    sent: 'Sent SMS',
    none: 'No SMS sent yet.',
    statuses: {
      pending: 'Sending',
      sent: 'Sent',
      delivered: 'Delivered',
      failed: 'Failed',
    } satisfies Record<MessageStatus, string>,
    segments: (count: number) => `${count} SMS`,
    newer: 'Newer',
    older: 'Older',
  },
} satisfies Record<Language, unknown>;

export interface SmsPageContext extends DashboardPageContext, SmsOverview {
  csrfToken: string;
  /** The business's time zone for the list's times (its first store's). */
  timeZone: string;
  /** The country a national number is read in unless the form says another (its first store's). */
  phoneCountry: UemoaCountry;
  /** The member may send (`sendSms`); otherwise the balance and the list alone. */
  canSend: boolean;
  /** For roles that may buy credit (`buySmsCredit`): the stores that can pay, and the price. */
  credit?: { stores: readonly CreditStore[]; segmentPriceCents: Cents } | undefined;
}

export interface SmsFormState {
  form: SmsForm;
  errors: readonly SmsError[];
}

const pageUrlOf = (context: DashboardPageContext) => `${context.baseUrl}/dashboard/sms`;

function sendForm(context: SmsPageContext, state: SmsFormState | undefined): SafeHtml {
  const t = text[context.language];
  const form = state?.form ?? { to: '', body: '' };
  const errors = state?.errors ?? [];
  const country = phoneCountryOf(form.phoneCountry, { businessCountry: context.phoneCountry });
  const examples = phoneExamples(country, context.language);
  const wordsOf = (error: SmsError) =>
    error.field === 'to' && error.rule === 'format'
      ? examples.invalidMobile
      : t.errors[error.field][error.rule];
  const messageOf = (name: SmsField) => {
    const error = errors.find((candidate) => candidate.field === name);
    return error && wordsOf(error);
  };
  const bodyError = messageOf('body');
  return html`${errorSummary(
    t.errorSummary,
    errors.map((error) => ({ field: error.field, message: wordsOf(error) ?? '' })),
  )}
<form method="post" action="${dashboardUrl(context, '/sms')}" novalidate>
${csrfField(context.csrfToken)}
${phoneField({ name: 'to', label: t.to, country, language: context.language, value: form.to, hint: examples.hint, error: messageOf('to'), attributes: html` type="tel" autocomplete="off" maxlength="32"` })}
<label class="field" for="body">${t.body}</label>
<p class="hint" id="body-hint">${t.balanceHint}</p>
${bodyError && html`<p class="field-error" id="body-error">${bodyError}</p>`}
<textarea class="input" id="body" name="body" rows="3" maxlength="${maxBodyCharacters}" aria-describedby="body-hint${bodyError ? ' body-error' : ''}"${bodyError ? html` aria-invalid="true"` : ''}>${form.body}</textarea>
<button class="button" type="submit">${t.check}</button>
</form>`;
}

function messageItem(context: SmsPageContext, message: Message): SafeHtml {
  const t = text[context.language];
  return html`<li data-message-id="${message.id}"><strong>${formatPhone(message.to)}</strong> · <span data-status="${message.status}">${t.statuses[message.status]}</span> · ${t.segments(message.segments)}<br>
<span class="muted">${dashboardTime(message.createdAt, context.timeZone, context.language)}</span><br>${message.body}</li>`;
}

/** The balance, the form (for roles that may send), and a page of the messages sent. */
export function smsPage(
  context: SmsPageContext,
  state?: SmsFormState,
  creditState?: Parameters<typeof buySmsCreditForm>[3],
): string {
  const t = text[context.language];
  const pages = Math.max(1, Math.ceil(context.total / smsPageLength));
  const pageLink = (page: number, label: string) =>
    html`<a href="${dashboardUrl(context, `/sms`)}${context.languagePinned ? '&' : '?'}page=${String(page)}">${label}</a>`;
  return dashboardTemplate(context, {
    section: 'sms',
    title: t.title,
    pageUrl: pageUrlOf(context),
    content: html`<div class="panel">
<h1>${t.title}</h1>
<p><strong data-testid="sms-balance">${t.balance(context.account.smsBalance)}</strong></p>
${context.account.smsBalance === 0 && context.credit && html`<p class="notice"><a href="#buy-credit">${t.buyFirst}</a></p>`}
${context.canSend && sendForm(context, state)}
${context.credit && buySmsCreditForm(context, context.credit.stores, context.credit.segmentPriceCents, creditState)}
<h2>${t.sent}</h2>
${context.messages.length === 0 ? html`<p>${t.none}</p>` : html`<ul data-testid="sent-sms">${context.messages.map((message) => messageItem(context, message))}</ul>`}
<p class="note">${context.page > 1 && pageLink(context.page - 1, t.newer)}${context.page > 1 && context.page < pages && ' · '}${context.page < pages && pageLink(context.page + 1, t.older)}</p>
</div>`,
  });
}

/** The check step: the recipient, the text, what it costs and the balance; short of it, no send button. */
export function checkSmsPage(
  context: DashboardPageContext & { csrfToken: string },
  sms: CheckedSms,
  form: SmsForm,
  smsBalance: number,
  /** The send was refused on the balance after the check (spent meanwhile). */
  refused = false,
): string {
  const t = text[context.language];
  const short = refused || smsBalance < sms.segments;
  return dashboardTemplate(context, {
    section: 'sms',
    title: t.checkTitle,
    pageUrl: pageUrlOf(context),
    content: html`<div class="panel">
<h1>${t.checkTitle}</h1>
${short && html`<div class="alert" role="alert" id="sms-balance-refused"><p>${t.emptyBalance(sms.segments, smsBalance)}</p></div>`}
<dl class="facts"><dt>${t.to}</dt><dd>${formatPhone(sms.to)}</dd></dl>
<p class="notice" data-testid="sms-text">${sms.body}</p>
<p data-testid="sms-segments">${t.cost(sms.segments)} ${t.balance(smsBalance)}</p>
<form method="post" action="${dashboardUrl(context, '/sms')}">
${csrfField(context.csrfToken)}
<input type="hidden" name="to" value="${form.to}">
${form.phoneCountry && html`<input type="hidden" name="${phoneCountryField}" value="${form.phoneCountry}">`}
<input type="hidden" name="body" value="${form.body}">
${!short && html`<button class="button" type="submit" name="confirm" value="yes">${t.confirm}</button>`}
<button class="button button-secondary" type="submit" name="confirm" value="change">${t.change}</button>
</form>
</div>`,
  });
}
