import { type AuditAction, type AuditEntry, auditActions } from '#shared/data/audit-entry.ts';
import type { Member } from '#shared/data/member.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { AuditFilters } from '#shared/operations/audit-log.ts';
import { type Column, idValue, table } from '#shared/pages/components.ts';
import { readableTime } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { maskPhone } from '#shared/pages/format.ts';
import { html } from '#shared/pages/html.ts';

/**
 * The audit log page (issue 25, item 8): who did what for the business, when and from which
 * address, newest first, filtered by action, member and days. A GET form: the filters are in the
 * address, so a filtered view can be bookmarked or shared with a colleague who may read it.
 */
const actionLabels: Record<Language, Record<AuditAction, string>> = {
  fr: {
    sign_in: 'Connexion',
    sign_in_code_failed: 'Code de connexion erroné',
    api_key_created: 'Clé d’API créée',
    api_key_revoked: 'Clé d’API révoquée',
    webhook_created: 'Webhook créé',
    webhook_changed: 'Webhook modifié',
    webhook_deleted: 'Webhook supprimé',
    webhook_secret_rotated: 'Secret du webhook renouvelé',
    webhook_test_sent: 'Événement de test envoyé',
    webhook_delivery_resent: 'Envoi de webhook renvoyé',
    member_invited: 'Membre invité',
    invitation_cancelled: 'Invitation annulée',
    member_role_changed: 'Rôle d’un membre modifié',
    member_removed: 'Membre retiré',
    refund_made: 'Remboursement',
    transfer_made: 'Transfert',
    payment_link_created: 'Lien de paiement créé',
    payment_link_switched_off: 'Lien de paiement désactivé',
    payment_link_switched_on: 'Lien de paiement réactivé',
    contact_added: 'Contact ajouté',
    contact_removed: 'Contact supprimé',
    step_up_threshold_changed: 'Seuil du code de confirmation modifié',
    payout_account_added: 'Compte de retrait ajouté',
    payout_account_removed: 'Compte de retrait retiré',
    withdrawal_made: 'Retrait',
    sms_credit_bought: 'Crédit SMS acheté',
    automatic_settlement_changed: 'Versement automatique modifié',
    step_up_code_failed: 'Code de confirmation erroné',
    transactions_exported: 'Transactions exportées (CSV)',
    payment_requested: 'Paiement demandé par SMS',
    sms_sent: 'SMS envoyé',
    payment_cancelled: 'Demande de paiement annulée',
    escrow_released: 'Séquestre libéré',
    escrow_refunded: 'Séquestre remboursé',
    soundbox_test_qr_shown: 'QR de test affiché sur une Soundbox',
  },
  en: {
    sign_in: 'Signed in',
    sign_in_code_failed: 'Wrong sign-in code',
    api_key_created: 'API key created',
    api_key_revoked: 'API key revoked',
    webhook_created: 'Webhook created',
    webhook_changed: 'Webhook changed',
    webhook_deleted: 'Webhook deleted',
    webhook_secret_rotated: 'Webhook secret renewed',
    webhook_test_sent: 'Test event sent',
    webhook_delivery_resent: 'Webhook delivery sent again',
    member_invited: 'Member invited',
    invitation_cancelled: 'Invitation cancelled',
    member_role_changed: 'Member’s role changed',
    member_removed: 'Member removed',
    refund_made: 'Refund',
    transfer_made: 'Transfer',
    payment_link_created: 'Payment link created',
    payment_link_switched_off: 'Payment link switched off',
    payment_link_switched_on: 'Payment link switched on',
    contact_added: 'Contact added',
    contact_removed: 'Contact removed',
    step_up_threshold_changed: 'Confirmation code threshold changed',
    payout_account_added: 'Payout account added',
    payout_account_removed: 'Payout account removed',
    withdrawal_made: 'Withdrawal',
    sms_credit_bought: 'SMS credit bought',
    automatic_settlement_changed: 'Automatic settlement changed',
    step_up_code_failed: 'Wrong confirmation code',
    transactions_exported: 'Transactions exported (CSV)',
    payment_requested: 'Payment asked for by SMS',
    sms_sent: 'SMS sent',
    payment_cancelled: 'Payment request cancelled',
    escrow_released: 'Escrow released',
    escrow_refunded: 'Escrow refunded',
    soundbox_test_qr_shown: 'Test QR shown on a soundbox',
  },
};

const text = {
  fr: {
    title: 'Journal d’activité',
    intro: 'Ce qui a été fait pour l’entreprise sur le tableau de bord, gardé au moins un an.',
    action: 'Action',
    anyAction: 'Toutes les actions',
    member: 'Membre',
    anyMember: 'Tous les membres',
    from: 'Du',
    to: 'Au',
    filter: 'Filtrer',
    none: 'Rien ne correspond à ces filtres.',
    who: 'Par',
    when: 'Quand',
    address: 'Adresse',
    subject: 'Objet',
    unknown: 'Inconnu',
    more: 'Entrées plus anciennes',
  },
  en: {
    title: 'Activity log',
    intro: 'What was done for the business on the dashboard, kept at least a year.',
    action: 'Action',
    anyAction: 'Every action',
    member: 'Member',
    anyMember: 'Every member',
    from: 'From',
    to: 'To',
    filter: 'Filter',
    none: 'Nothing matches these filters.',
    who: 'By',
    when: 'When',
    address: 'Address',
    subject: 'Subject',
    unknown: 'Unknown',
    more: 'Older entries',
  },
} satisfies Record<Language, unknown>;

export interface AuditPageContext extends DashboardPageContext {
  pageUrl: string;
  filters: AuditFilters;
  entries: readonly AuditEntry[];
  members: readonly Member[];
  next?: string | undefined;
}

/**
 * The entries as a table: columns on a desktop; on a phone each entry two lines (what was done,
 * then when, by whom, from where, on what), the subject's id cut with an ellipsis, whole in its title.
 */
function entriesTable(context: AuditPageContext, names: Map<string, string>) {
  const t = text[context.language];
  const who = (entry: AuditEntry) =>
    (entry.actor.memberId && names.get(entry.actor.memberId)) ||
    (entry.actor.phone && maskPhone(entry.actor.phone)) ||
    t.unknown;
  const columns: Column<AuditEntry>[] = [
    {
      header: t.action,
      phone: 'lead',
      cell: (entry) => html`<strong>${actionLabels[context.language][entry.action]}</strong>`,
    },
    {
      header: t.when,
      phone: 'meta',
      cell: (entry) => html`<span class="nowrap">${readableTime(entry.at, context)}</span>`,
    },
    { header: t.who, phone: 'meta', cell: who },
    { header: t.address, phone: 'meta', cell: (entry) => entry.sourceIp || t.unknown },
    {
      header: t.subject,
      phone: 'meta',
      kind: 'id',
      cell: (entry) =>
        html`${entry.detail ?? ''}${entry.detail && entry.subjectId ? ' · ' : ''}${entry.subjectId ? idValue(entry.subjectId) : ''}`,
    },
  ];
  return table({
    caption: t.title,
    columns,
    rows: context.entries,
    testId: 'audit-entries',
    rowAttributes: (entry) => html` data-action="${entry.action}"`,
  });
}

export function auditLogPage(context: AuditPageContext): string {
  const t = text[context.language];
  const { filters } = context;
  const names = new Map(context.members.map((member) => [member.id, member.name]));
  const nextUrl = new URL(dashboardUrl(context, '/audit'));
  for (const [name, value] of Object.entries({
    action: filters.action,
    member: filters.memberId,
    from: filters.from,
    to: filters.to,
    after: context.next,
  })) {
    if (value) nextUrl.searchParams.set(name, value);
  }
  return dashboardTemplate(context, {
    section: 'audit',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
<p>${t.intro}</p>
<form method="get" action="${dashboardUrl(context, '/audit')}">
${context.languagePinned && html`<input type="hidden" name="lang" value="${context.language}">`}
<label class="field" for="action">${t.action}</label>
<select class="input" id="action" name="action">
<option value="">${t.anyAction}</option>
${auditActions.map((action) => html`<option value="${action}"${filters.action === action ? html` selected` : ''}>${actionLabels[context.language][action]}</option>`)}
</select>
<label class="field" for="member">${t.member}</label>
<select class="input" id="member" name="member">
<option value="">${t.anyMember}</option>
${context.members.map((member) => html`<option value="${member.id}"${filters.memberId === member.id ? html` selected` : ''}>${member.name}</option>`)}
</select>
<label class="field" for="from">${t.from}</label>
<input class="input" id="from" name="from" type="date" value="${filters.from ?? ''}">
<label class="field" for="to">${t.to}</label>
<input class="input" id="to" name="to" type="date" value="${filters.to ?? ''}">
<button class="button button-secondary" type="submit">${t.filter}</button>
</form>
${context.entries.length === 0 ? html`<p>${t.none}</p>` : entriesTable(context, names)}
${context.next && html`<p><a href="${nextUrl.href}">${t.more}</a></p>`}
</div>`,
  });
}
