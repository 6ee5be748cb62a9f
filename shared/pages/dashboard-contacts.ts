import type { Contact } from '#shared/data/contact.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import type { TransferForm, TransferProblem } from '#shared/operations/dashboard-transfers.ts';
import { errorSummary } from '#shared/pages/components.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { confirmationPage, doneNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { beneficiaryFields, beneficiaryProblemMessages } from '#shared/pages/dashboard-transfers.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { formatPhone } from '#shared/pages/format.ts';
import { html } from '#shared/pages/html.ts';
import { providerNames } from '#shared/pages/messages.ts';
import { phoneCountryOf } from '#shared/pages/phone-country.ts';

/**
 * The business's contacts (issue 26, item 5): the beneficiaries saved for sending money, each with
 * its operator and number, a way to send it money and to remove it; the form that adds one.
 */
const text = {
  fr: {
    title: 'Contacts',
    intro:
      'Les bénéficiaires enregistrés, pour leur envoyer de l’argent depuis n’importe quel point de vente.',
    none: 'Aucun contact pour l’instant.',
    sendTo: (name: string) => `Envoyer de l’argent à ${name}`,
    send: 'Envoyer de l’argent',
    remove: 'Supprimer',
    removeNamed: (name: string) => `Supprimer le contact ${name}`,
    addTitle: 'Ajouter un contact',
    add: 'Ajouter le contact',
    added: (name: string) => `Contact « ${name} » ajouté.`,
    removed: 'Contact supprimé.',
    confirmTitle: 'Supprimer ce contact ?',
    confirmName: 'Nom',
    confirmNumber: 'Numéro',
    confirmIntro: (name: string) =>
      `« ${name} » ne sera plus proposé pour envoyer de l’argent. Les transferts déjà faits restent dans l’historique.`,
    confirmAgain: 'Pour lui envoyer de l’argent plus tard, il faudra saisir son numéro à nouveau.',
    confirm: 'Oui, supprimer le contact',
    errorSummary: 'Il y a un problème',
    back: 'Retour à l’envoi d’argent',
  },
  en: {
    title: 'Contacts',
    intro: 'The saved beneficiaries, to send them money from any point of sale.',
    none: 'No contacts yet.',
    sendTo: (name: string) => `Send money to ${name}`,
    send: 'Send money',
    remove: 'Remove',
    removeNamed: (name: string) => `Remove the contact ${name}`,
    addTitle: 'Add a contact',
    add: 'Add the contact',
    added: (name: string) => `Contact “${name}” added.`,
    removed: 'Contact removed.',
    confirmTitle: 'Remove this contact?',
    confirmName: 'Name',
    confirmNumber: 'Number',
    confirmIntro: (name: string) =>
      `“${name}” will no longer be offered for sending money. Transfers already made stay in the history.`,
    confirmAgain: 'To send them money later, you will have to enter their number again.',
    confirm: 'Yes, remove the contact',
    errorSummary: 'There is a problem',
    back: 'Back to sending money',
  },
} satisfies Record<Language, unknown>;

export interface ContactsPageContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
  contacts: readonly Contact[];
  /** The member may send money: add and remove contacts too. */
  canManage: boolean;
  /** The business's country (its first store's): a new contact's national number is read there. */
  phoneCountry?: UemoaCountry | undefined;
  notice?: { added: string } | { removed: true } | undefined;
}

export type ContactFormState = Pick<TransferForm, 'name' | 'paymentMethod' | 'number' | 'phoneCountry'> & {
  problems: readonly TransferProblem[];
};

function contactItem(context: ContactsPageContext, contact: Contact) {
  const t = text[context.language];
  const number = 'number' in contact.identifier ? contact.identifier.number : '';
  const sendUrl = `${dashboardUrl(context, '/transfers/new')}${context.languagePinned ? '&' : '?'}to=contact&contactId=${contact.id}`;
  return html`<li data-contact-id="${contact.id}">
<h3>${contact.name}</h3>
<p>${providerNames[contact.paymentMethod as ProviderCode] ?? contact.paymentMethod} · <span class="nowrap">${formatPhone(number)}</span></p>
${
  context.canManage &&
  html`<p><a class="button" href="${sendUrl}" aria-label="${t.sendTo(contact.name)}">${t.send}</a>
<a class="button button-secondary" href="${dashboardUrl(context, `/contacts/${contact.id}/remove`)}" aria-label="${t.removeNamed(contact.name)}">${t.remove}</a></p>`
}
</li>`;
}

export function contactsPage(context: ContactsPageContext, form?: ContactFormState): string {
  const t = text[context.language];
  const phoneCountry = phoneCountryOf(form?.phoneCountry, { businessCountry: context.phoneCountry });
  const errors = beneficiaryProblemMessages(context.language, form?.problems ?? [], phoneCountry);
  const errorOf = (name: string) => errors.find((error) => error.field === name)?.message;
  const notice = context.notice
    ? 'added' in context.notice
      ? t.added(context.notice.added)
      : t.removed
    : undefined;
  return dashboardTemplate(context, {
    section: 'transfers',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
${doneNotice(notice)}
<p>${t.intro}</p>
${
  context.contacts.length === 0
    ? html`<p>${t.none}</p>`
    : html`<ul data-testid="contacts">${context.contacts.map((contact) => contactItem(context, contact))}</ul>`
}
${
  context.canManage &&
  html`<h2 id="add">${t.addTitle}</h2>
${errorSummary(t.errorSummary, errors)}
<form method="post" action="${dashboardUrl(context, '/contacts')}" novalidate>
${csrfField(context.csrfToken)}
${beneficiaryFields(context.language, form ?? { name: '', paymentMethod: '', number: '' }, errorOf, context.phoneCountry)}
<button class="button" type="submit">${t.add}</button>
</form>`
}
<p class="note"><a href="${dashboardUrl(context, '/transfers')}">${t.back}</a></p>
</div>`,
  });
}

/** The step before a contact is removed: who, and what it changes. */
export function confirmRemoveContactPage(
  context: DashboardPageContext & { pageUrl: string; csrfToken: string },
  contact: Contact,
): string {
  const t = text[context.language];
  const number = 'number' in contact.identifier ? contact.identifier.number : '';
  const operator = providerNames[contact.paymentMethod as ProviderCode] ?? contact.paymentMethod;
  return confirmationPage(context, {
    section: 'transfers',
    title: t.confirmTitle,
    facts: [
      [t.confirmName, contact.name],
      [t.confirmNumber, `${operator} · ${formatPhone(number)}`],
    ],
    consequences: [t.confirmIntro(contact.name), t.confirmAgain],
    action: dashboardUrl(context, `/contacts/${contact.id}/remove`),
    confirm: t.confirm,
    backUrl: dashboardUrl(context, '/contacts'),
  });
}
