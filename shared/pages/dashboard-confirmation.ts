import type { Language } from '#shared/domain/languages.ts';
import type { DashboardSection } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate, sessionForm } from '#shared/pages/dashboard-template.ts';
import type { DashboardPageContext } from '#shared/pages/dashboard-url.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

/**
 * The step before a destructive or irreversible action (issue 35), as GOV.UK's pattern has it: a
 * page reached by a link (a GET, so the first tap changes nothing) that says in plain words what
 * will happen, a warning when it cannot be undone, one button that posts the action with the
 * session's CSRF token, and a way back that changes nothing. After the post, the page the person
 * lands on says what was done (`doneNotice`), read from a notice code in its address.
 */
const text = {
  fr: { back: 'Non, revenir en arrière', warning: 'Attention : ' },
  en: { back: 'No, go back', warning: 'Warning: ' },
} satisfies Record<Language, unknown>;

export interface Confirmation {
  /** The navigation's section the page belongs to. */
  section: DashboardSection;
  /** A question: "Annuler cette demande de paiement ?" */
  title: string;
  /** What the action is about (a name, an amount), shown as a summary list. */
  facts?: readonly (readonly [label: string, value: string])[];
  /** What will happen, in plain words: one paragraph each. */
  consequences: readonly string[];
  /** Why it cannot be undone, or what is lost, in the warning box. */
  warning?: string | undefined;
  /** Where the button posts, and the fields it carries besides the CSRF token. */
  action: string;
  fields?: Readonly<Record<string, string>>;
  /** "Oui, annuler la demande" */
  confirm: string;
  /** The page the person came from: going back changes nothing. */
  backUrl: string;
}

export function confirmationPage(
  context: DashboardPageContext & { pageUrl: string; csrfToken: string },
  confirmation: Confirmation,
): string {
  const t = text[context.language];
  const facts = confirmation.facts ?? [];
  return dashboardTemplate(context, {
    section: confirmation.section,
    title: confirmation.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content" data-testid="confirmation">
<h1>${confirmation.title}</h1>
${
  facts.length > 0 &&
  html`<dl class="facts">${facts.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`
}
${confirmation.consequences.map((line) => html`<p>${line}</p>`)}
${
  confirmation.warning &&
  html`<div class="alert" data-testid="confirm-warning"><p><strong>${t.warning}</strong>${confirmation.warning}</p></div>`
}
${sessionForm(
  confirmation.action,
  context.csrfToken,
  html`${Object.entries(confirmation.fields ?? {}).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}
<button class="button button-decline" type="submit">${confirmation.confirm}</button>`,
)}
<p class="note"><a href="${confirmation.backUrl}" data-testid="confirm-back">${t.back}</a></p>
</div>`,
  });
}

/** The banner after an action: what was done, announced to assistive technology. */
export const doneNotice = (message: string | undefined): SafeHtml | '' =>
  message ? html`<div class="notice" role="status" data-testid="notice"><p>${message}</p></div>` : '';

/** `url` with `name=value` added to its query (it may carry `lang` already). */
export function withNotice(url: string, name: string, value: string): string {
  const address = new URL(url);
  address.searchParams.set(name, value);
  return address.toString();
}
