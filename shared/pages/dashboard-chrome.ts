import type { Language } from '#shared/domain/languages.ts';
import { dashboardStylesheet } from '#shared/pages/dashboard-style.ts';
import type { DashboardPageContext } from '#shared/pages/dashboard-url.ts';
import { dashboardTime } from '#shared/pages/format.ts';
import { html, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';
import { contentSecurityPolicyAllowing } from '#shared/pages/layout.ts';

/**
 * What the signed-in dashboard pages share beyond their template (`dashboard-template.ts`): the
 * form token, a time as people read it, and a value shown once (a key's secret) in a read-only
 * field with a copy button.
 *
 * The copy button is the dashboard's one script, allowed by its hash alone: without it (or with
 * scripts off) the button stays hidden and the field is still there to select and copy by hand.
 */
const copyScript = `document.querySelectorAll('button[data-copy]').forEach(function(button){
var field=document.getElementById(button.getAttribute('data-copy'));
if(!field||!navigator.clipboard)return;
button.hidden=false;
button.addEventListener('click',function(){field.select();navigator.clipboard.writeText(field.value).then(function(){button.textContent=button.getAttribute('data-copied');});});
});`;

/** The hosted pages' policy, plus the copy button's script by its hash. */
export const dashboardContentSecurityPolicy = contentSecurityPolicyAllowing([copyScript], {}, [
  dashboardStylesheet,
]);

const text = {
  fr: {
    copy: 'Copier',
    copied: 'Copié',
    shownOnce: 'Copiez-la maintenant : elle ne sera plus jamais affichée.',
  },
  en: {
    copy: 'Copy',
    copied: 'Copied',
    shownOnce: 'Copy it now: it will never be shown again.',
  },
} satisfies Record<Language, unknown>;

/** The dashboard's sections, each a link in the template's navigation (`dashboard-template.ts`). */
export type DashboardSection =
  | 'home'
  | 'transactions'
  | 'statements'
  | 'paymentLinks'
  | 'paymentRequests'
  | 'transfers'
  | 'withdrawals'
  | 'escrows'
  | 'soundboxes'
  | 'sms'
  | 'team'
  | 'apiKeys'
  | 'webhooks'
  | 'audit';

export const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

/**
 * A time that belongs to no store, in the dashboard's one style and the business's zone
 * (`context.timeZone`): "25/11/2026 à 14:08".
 */
export const readableTime = (
  at: string | undefined,
  context: Pick<DashboardPageContext, 'language' | 'timeZone'>,
) => (at ? dashboardTime(at, context.timeZone, context.language) : '');

/** A value in a read-only field a person can select, with a copy button for browsers with scripts. */
export function copyableField(
  language: Language,
  field: { id: string; label: string; value: string },
): SafeHtml {
  const t = text[language];
  return html`<label class="field" for="${field.id}">${field.label}</label>
<input class="input" id="${field.id}" name="${field.id}" value="${field.value}" readonly spellcheck="false" autocomplete="off">
<button class="button button-secondary" type="button" data-copy="${field.id}" data-copied="${t.copied}" hidden>${t.copy} (${field.label})</button>`;
}

/** A value shown once (a key's secret): the same field, beside `shownOnceNotice`. */
export const shownOnceField = copyableField;

export const shownOnceNotice = (language: Language) =>
  html`<p class="notice" role="status">${text[language].shownOnce}</p>`;

/** The copy buttons' script: put once at the end of a page that shows a value once. */
export const copyButtonScript = () => html`<script>${trustedHtml(copyScript)}</script>`;
