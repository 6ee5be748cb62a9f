import type { Contact } from '#shared/data/contact.ts';
import type { Store } from '#shared/data/store.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { Cents } from '#shared/domain/money.ts';
import { everyProviderByUse } from '#shared/domain/operator-countries.ts';
import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import type { TransferForm, TransferProblem } from '#shared/operations/dashboard-transfers.ts';
import { errorSummary, field } from '#shared/pages/components.ts';
import { inCountry } from '#shared/pages/country-choice.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { dashboardTime, deBefore, formatAmount, formatPhone, plural } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { providerNames } from '#shared/pages/messages.ts';
import { phoneCountryOf, phoneExamples, phoneField } from '#shared/pages/phone-country.ts';

/**
 * Send money (issue 26, item 5): the transfers with their statuses, the form (a saved contact, a
 * new beneficiary or another store), the "check your answers" step with what the beneficiary
 * receives (the amount the button sends), and apart the fee and the total the store is debited,
 * and above the owner's threshold the SMS code asked before sending.
 */
const text = {
  fr: {
    title: 'Envoyer de l’argent',
    send: 'Envoyer de l’argent',
    contacts: 'Contacts',
    recent: 'Derniers transferts',
    none: 'Aucun transfert ces 30 derniers jours.',
    allInList: 'Tous les transferts dans la liste des transactions',
    sent: (status: string) => `Transfert enregistré : ${status}.`,
    statuses: { pending: 'en cours', success: 'réussi', error: 'échoué' } as Record<string, string>,
    statusLabel: 'Statut',
    to: 'Bénéficiaire',
    toChosen: 'À\u00a0:',
    colon: '\u00a0: ',
    amount: 'Montant',
    fee: 'Frais',
    total: 'Total débité',
    receives: 'Le bénéficiaire reçoit',
    totalFrom: (store: string) => `Total débité ${deBefore(store)}`,
    date: 'Date',
    store: 'Point de vente',
    thresholdTitle: 'Code de confirmation',
    thresholdIntro: (amount: string) =>
      `Au-delà de ${amount}, un transfert demande un code envoyé par SMS au téléphone de la personne qui l’envoie.`,
    thresholdLabel: 'Nouveau seuil (F CFA)',
    thresholdHint: 'Seul le propriétaire peut le changer. Par exemple 100 000',
    thresholdSave: 'Enregistrer le seuil',
    thresholdSaved: 'Le seuil est enregistré.',
    thresholdInvalid: 'Saisissez un montant en francs, par exemple 100 000.',
    formTitle: 'Envoyer de l’argent',
    from: 'Depuis le point de vente',
    available: (amount: string) => `disponible : ${amount}`,
    whom: 'À qui ?',
    toContact: 'Un contact enregistré',
    toNew: 'Un nouveau bénéficiaire',
    toStore: 'Un autre point de vente de l’entreprise',
    chooseContact: 'Choisissez un contact',
    chooseStore: 'Choisissez un point de vente',
    noContacts: 'Aucun contact enregistré.',
    name: 'Nom du bénéficiaire',
    operator: 'Opérateur',
    chooseOperator: 'Choisissez un opérateur',
    number: 'Numéro de téléphone',
    numberHint: 'Le numéro du compte mobile money.',
    amountInFrancs: 'Montant en F CFA',
    description: 'Motif (facultatif)',
    continue: 'Continuer',
    errorSummary: 'Il y a un problème',
    problems: {
      storeId: 'Choisissez le point de vente d’où part l’argent.',
      to: 'Choisissez à qui envoyer l’argent.',
      contactId: 'Choisissez un contact.',
      payoutAccountId: 'Choisissez le compte où retirer l’argent.',
      destinationStoreId: 'Choisissez le point de vente qui reçoit l’argent.',
      same_store: 'Choisissez un autre point de vente que celui d’où part l’argent.',
      currency: 'Ce point de vente ne tient pas la même monnaie.',
      name: 'Saisissez le nom du bénéficiaire.',
      nameMax: 'Le nom fait au plus 255 caractères.',
      paymentMethod: 'Choisissez l’opérateur du bénéficiaire.',
      number: 'Saisissez le numéro du bénéficiaire.',
      numberFormat: 'Saisissez un numéro mobile d’un pays de l’UEMOA.',
      amount: 'Saisissez le montant en francs, par exemple 1 500.',
      amountMin: 'Le montant est d’au moins 5 F CFA.',
      amountMax: 'Le montant est trop élevé.',
      description: 'Le motif fait au plus 255 caractères.',
    },
    unserved: (provider: string, countryIn: string) =>
      `${provider} ne prend pas de paiements ${countryIn}, le pays de ce numéro : choisissez un autre opérateur.`,
    insufficient: (available: string, total: string) =>
      `Le solde disponible du point de vente (${available}) ne couvre pas ${total}, frais compris.`,
    checkTitle: 'Vérifiez l’envoi',
    fromStore: (store: string) => `Depuis ${store}`,
    change: 'Modifier',
    sendButton: (amount: string) => `Envoyer ${amount}`,
    code: (phone: string) => `Code envoyé par SMS au ${phone}`,
    codeHint: 'Au-delà du seuil de l’entreprise : 6 chiffres, valables 5 minutes',
    codeWrong: (left: number) =>
      `Ce code n’est pas le bon. Il vous reste ${plural('fr', left, { one: '# essai', other: '# essais' })}.`,
    codeMalformed: 'Saisissez les 6 chiffres du code reçu par SMS.',
    codeEnded: 'Ce code n’est plus valable (expiré, déjà utilisé ou trop d’essais). Demandez-en un nouveau.',
    newCode: 'Recevoir un nouveau code',
    limited: 'Trop de codes demandés : réessayez dans 15 minutes.',
    noPhone: 'Aucun téléphone n’est enregistré pour vous : le code ne peut pas être envoyé.',
    refusedTitle: 'Le transfert n’a pas été envoyé',
    operatorDown: (operator: string) =>
      `${operator} ne répond pas en ce moment : rien n’a été envoyé. Réessayez dans quelques minutes, ou envoyez par un autre opérateur.`,
    insufficientNow:
      'Le solde disponible du point de vente ne couvre plus ce transfert, frais compris : rien n’a été envoyé.',
    reused: 'Ce formulaire a déjà servi pour un autre transfert : recommencez depuis le début.',
    back: 'Retour à l’envoi d’argent',
    cancel: 'Annuler',
  },
  en: {
    title: 'Send money',
    send: 'Send money',
    contacts: 'Contacts',
    recent: 'Latest transfers',
    none: 'No transfers in the last 30 days.',
    allInList: 'All transfers in the transaction list',
    sent: (status: string) => `Transfer recorded: ${status}.`,
    statuses: { pending: 'pending', success: 'successful', error: 'failed' } as Record<string, string>,
    statusLabel: 'Status',
    to: 'Beneficiary',
    toChosen: 'To:',
    colon: ': ',
    amount: 'Amount',
    fee: 'Fee',
    total: 'Total debited',
    receives: 'The beneficiary receives',
    totalFrom: (store: string) => `Total debited from ${store}`,
    date: 'Date',
    store: 'Point of sale',
    thresholdTitle: 'Confirmation code',
    thresholdIntro: (amount: string) =>
      `Above ${amount}, a transfer asks for a code sent by SMS to the phone of the person sending it.`,
    thresholdLabel: 'New threshold (F CFA)',
    thresholdHint: 'Only the owner can change it. For example 100 000',
    thresholdSave: 'Save the threshold',
    thresholdSaved: 'The threshold is saved.',
    thresholdInvalid: 'Enter an amount in francs, for example 100 000.',
    formTitle: 'Send money',
    from: 'From the point of sale',
    available: (amount: string) => `available: ${amount}`,
    whom: 'To whom?',
    toContact: 'A saved contact',
    toNew: 'A new beneficiary',
    toStore: 'Another point of sale of the business',
    chooseContact: 'Choose a contact',
    chooseStore: 'Choose a point of sale',
    noContacts: 'No saved contacts.',
    name: 'Beneficiary’s name',
    operator: 'Operator',
    chooseOperator: 'Choose an operator',
    number: 'Phone number',
    numberHint: 'The mobile-money account’s number.',
    amountInFrancs: 'Amount in F CFA',
    description: 'Reason (optional)',
    continue: 'Continue',
    errorSummary: 'There is a problem',
    problems: {
      storeId: 'Choose the point of sale the money leaves from.',
      to: 'Choose whom to send the money to.',
      contactId: 'Choose a contact.',
      payoutAccountId: 'Choose the account to withdraw to.',
      destinationStoreId: 'Choose the point of sale that receives the money.',
      same_store: 'Choose another point of sale than the one the money leaves from.',
      currency: 'That point of sale does not keep the same currency.',
      name: 'Enter the beneficiary’s name.',
      nameMax: 'The name is 255 characters at most.',
      paymentMethod: 'Choose the beneficiary’s operator.',
      number: 'Enter the beneficiary’s number.',
      numberFormat: 'Enter a mobile number of a UEMOA country.',
      amount: 'Enter the amount in francs, for example 1 500.',
      amountMin: 'The amount is 5 F CFA at least.',
      amountMax: 'The amount is too large.',
      description: 'The reason is 255 characters at most.',
    },
    unserved: (provider: string, countryIn: string) =>
      `${provider} does not take payments ${countryIn}, this number’s country: choose another operator.`,
    insufficient: (available: string, total: string) =>
      `The point of sale’s available balance (${available}) does not cover ${total}, fee included.`,
    checkTitle: 'Check the transfer',
    fromStore: (store: string) => `From ${store}`,
    change: 'Change',
    sendButton: (amount: string) => `Send ${amount}`,
    code: (phone: string) => `Code sent by SMS to ${phone}`,
    codeHint: 'Above the business’s threshold: 6 digits, valid 5 minutes',
    codeWrong: (left: number) =>
      `That code is not the right one. You have ${plural('en', left, { one: '# try', other: '# tries' })} left.`,
    codeMalformed: 'Enter the 6 digits of the code received by SMS.',
    codeEnded:
      'This code can no longer be used (expired, already used or too many tries). Ask for a new one.',
    newCode: 'Get a new code',
    limited: 'Too many codes asked for: try again in 15 minutes.',
    noPhone: 'No phone is recorded for you: the code cannot be sent.',
    refusedTitle: 'The transfer was not sent',
    operatorDown: (operator: string) =>
      `${operator} is not answering right now: nothing was sent. Try again in a few minutes, or send through another operator.`,
    insufficientNow:
      'The point of sale’s available balance no longer covers this transfer, fee included: nothing was sent.',
    reused: 'This form was already used for another transfer: start again from the beginning.',
    back: 'Back to sending money',
    cancel: 'Cancel',
  },
} satisfies Record<Language, unknown>;

export const transferStatusName = (language: Language, status: string) =>
  text[language].statuses[status] ?? status;

export interface ListedTransfer {
  id: string;
  status: string;
  amountCents: Cents;
  feeCents: Cents;
  currency: string;
  counterpartLabel: string;
  counterpartIdentifier: string;
  storeName: string;
  createdAt: string;
  store: Store | undefined;
}

export interface TransfersPageContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
  transfers: readonly ListedTransfer[];
  thresholdCents: Cents;
  canSend: boolean;
  canSetThreshold: boolean;
  /** After a transfer: its status. */
  sentStatus?: string | undefined;
  thresholdSaved?: boolean;
  thresholdError?: boolean;
}

export const page = (
  context: DashboardPageContext & { pageUrl?: string },
  title: string,
  content: SafeHtml,
) =>
  dashboardTemplate(context, {
    section: 'transfers',
    title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
${content}
</div>`,
  });

export const money = (cents: Cents, currency = 'XOF') =>
  html`<span class="nowrap">${formatAmount(cents, currency)}</span>`;

/** A number as a phone shows it, or a store's name as it is. */
export const identifierText = (identifier: string) =>
  identifier.startsWith('+') ? formatPhone(identifier) : identifier;

function transferItem(language: Language, transfer: ListedTransfer) {
  const t = text[language];
  return html`<li data-transfer-id="${transfer.id}">
<h3>${transfer.counterpartLabel} · ${money(transfer.amountCents, transfer.currency)}</h3>
<dl class="facts">
<dt>${t.statusLabel}</dt><dd data-status="${transfer.status}">${transferStatusName(language, transfer.status)}</dd>
<dt>${t.to}</dt><dd>${identifierText(transfer.counterpartIdentifier)}</dd>
<dt>${t.fee}</dt><dd>${money(transfer.feeCents, transfer.currency)}</dd>
<dt>${t.store}</dt><dd>${transfer.storeName}</dd>
<dt>${t.date}</dt><dd>${dashboardTime(transfer.createdAt, storeTimeZone(transfer.store ?? {}), language)}</dd>
</dl>
</li>`;
}

export function transfersPage(context: TransfersPageContext): string {
  const t = text[context.language];
  return page(
    context,
    t.title,
    html`<h1>${t.title}</h1>
${context.sentStatus && html`<p class="notice" role="status">${t.sent(transferStatusName(context.language, context.sentStatus))}</p>`}
${context.thresholdSaved && html`<p class="notice" role="status">${t.thresholdSaved}</p>`}
${context.canSend && html`<p><a class="button" href="${dashboardUrl(context, '/transfers/new')}">${t.send}</a></p>`}
<p><a href="${dashboardUrl(context, '/contacts')}">${t.contacts}</a></p>
<h2>${t.recent}</h2>
${
  context.transfers.length === 0
    ? html`<p>${t.none}</p>`
    : html`<ul data-testid="transfers">${context.transfers.map((transfer) => transferItem(context.language, transfer))}</ul>`
}
<p><a href="${dashboardUrl(context, '/transactions')}${context.languagePinned ? '&' : '?'}type=transfer">${t.allInList}</a></p>
<h2 id="threshold-title">${t.thresholdTitle}</h2>
<p>${t.thresholdIntro(formatAmount(context.thresholdCents))}</p>
${
  context.canSetThreshold &&
  html`${errorSummary(t.errorSummary, context.thresholdError ? [{ field: 'threshold', message: t.thresholdInvalid }] : [])}
<form method="post" action="${dashboardUrl(context, '/transfers/threshold')}" novalidate>
${csrfField(context.csrfToken)}
${field({
  name: 'threshold',
  label: t.thresholdLabel,
  hint: t.thresholdHint,
  value: String(context.thresholdCents / 100),
  error: context.thresholdError ? t.thresholdInvalid : undefined,
  attributes: html` inputmode="numeric" autocomplete="off"`,
})}
<button class="button button-secondary" type="submit">${t.thresholdSave}</button>
</form>`
}`,
  );
}

export interface TransferFormContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
  stores: readonly { store: Store; availableCents: Cents }[];
  contacts: readonly Contact[];
}

/** A new payout account's wait, in the page's language and the dashboard's one date style. */
export const coolingMessage = (language: Language, usableFrom: string, timeZone?: string) => {
  const when = dashboardTime(usableFrom, timeZone, language);
  return language === 'fr'
    ? `Ce compte vient d’être ajouté : il pourra recevoir des retraits à partir du ${when}.`
    : `This account was just added: it can receive withdrawals from ${when}.`;
};

/**
 * Each problem as the field it belongs to and the words shown for it; a number that cannot be read
 * gets an example of `phoneCountry`, the country it was read in, when the form has one.
 */
export function problemMessages(
  language: Language,
  problems: readonly TransferProblem[],
  phoneCountry?: UemoaCountry,
) {
  const t = text[language];
  const numberFormat = phoneCountry
    ? phoneExamples(phoneCountry, language).invalidMobile
    : t.problems.numberFormat;
  return problems.map((problem) => {
    const field =
      problem.field === 'paymentMethod' && problem.rule === 'provider_country'
        ? 'paymentMethod'
        : problem.field;
    let message: string;
    if (problem.rule === 'provider_country') {
      message = t.unserved(providerNames[problem.provider], inCountry(language, problem.country));
    } else if (problem.rule === 'down') {
      message = t.operatorDown(providerNames[problem.provider]);
    } else if (problem.rule === 'cooling') {
      message = coolingMessage(language, problem.usableFrom);
    } else if (problem.rule === 'insufficient') {
      message = t.insufficient(formatAmount(problem.availableCents), formatAmount(problem.totalCents));
    } else if (problem.rule === 'same_store' || problem.rule === 'currency') {
      message = t.problems[problem.rule];
    } else if (problem.field === 'amount') {
      message =
        problem.rule === 'min'
          ? t.problems.amountMin
          : problem.rule === 'max'
            ? t.problems.amountMax
            : t.problems.amount;
    } else if (problem.field === 'number') {
      message = problem.rule === 'format' ? numberFormat : t.problems.number;
    } else if (problem.field === 'name') {
      message = problem.rule === 'max' ? t.problems.nameMax : t.problems.name;
    } else message = t.problems[problem.field];
    return { field, message };
  });
}

/**
 * The beneficiary's operator and number, shared with the contacts page's form. The number is read
 * in the country chosen beside it (`country`, the store's until another is chosen), whose common
 * wallet heads the operators (Wave in Senegal and Côte d'Ivoire) and whose number is the example.
 */
export function beneficiaryFields(
  language: Language,
  state: Pick<TransferForm, 'name' | 'paymentMethod' | 'number' | 'phoneCountry'>,
  errorOf: (field: 'name' | 'paymentMethod' | 'number') => string | undefined,
  storeCountry: UemoaCountry | undefined,
): SafeHtml {
  const t = text[language];
  const country = phoneCountryOf(state.phoneCountry, { businessCountry: storeCountry });
  const examples = phoneExamples(country, language);
  const methodError = errorOf('paymentMethod');
  return html`${field({ name: 'name', label: t.name, value: state.name, error: errorOf('name'), attributes: html` maxlength="255" autocomplete="off"` })}
<label class="field" for="paymentMethod">${t.operator}</label>
${methodError && html`<p class="field-error" id="paymentMethod-error">${methodError}</p>`}
<select class="input" id="paymentMethod" name="paymentMethod"${methodError ? html` aria-invalid="true" aria-describedby="paymentMethod-error"` : ''}>
<option value="">${t.chooseOperator}</option>
${everyProviderByUse(country, providerCodes).map((code: ProviderCode) => html`<option value="${code}"${state.paymentMethod === code ? html` selected` : ''}>${providerNames[code]}</option>`)}
</select>
${phoneField({ name: 'number', label: t.number, country, language, hint: `${t.numberHint} ${examples.hint}`, value: state.number, error: errorOf('number'), attributes: html` type="tel" inputmode="tel" autocomplete="off"` })}`;
}

export const beneficiaryProblemMessages = (
  language: Language,
  problems: readonly TransferProblem[],
  phoneCountry?: UemoaCountry,
) => problemMessages(language, problems, phoneCountry);

export const sendMoneyText = (language: Language) => text[language];

/** The form: amount first (what a person comes to type), then whom to, then the store. */
export function transferFormPage(
  context: TransferFormContext,
  state: TransferForm,
  problems: readonly TransferProblem[] = [],
): string {
  const t = text[context.language];
  const storeCountry = (context.stores.find(({ store }) => store.id === state.storeId) ?? context.stores[0])
    ?.store.country;
  const phoneCountry = phoneCountryOf(state.phoneCountry, { businessCountry: storeCountry });
  const errors = problemMessages(context.language, problems, phoneCountry);
  const errorOf = (name: string) => errors.find((error) => error.field === name)?.message;
  const to = state.to || (context.contacts.length > 0 ? 'contact' : 'new');
  const choice = (value: string, label: string, content: SafeHtml) =>
    html`<div class="panel">
<label class="provider"><input type="radio" name="to" value="${value}"${to === value ? html` checked` : ''}><span class="provider-name">${label}</span></label>
${content}
</div>`;
  const storeSelect = (
    name: 'storeId' | 'destinationStoreId',
    label: string,
    chosen: string,
    withBalance: boolean,
  ) => {
    const error = errorOf(name);
    return html`<label class="field" for="${name}">${label}</label>
${error && html`<p class="field-error" id="${name}-error">${error}</p>`}
<select class="input" id="${name}" name="${name}"${error ? html` aria-invalid="true" aria-describedby="${name}-error"` : ''}>
${name === 'destinationStoreId' && html`<option value="">${t.chooseStore}</option>`}
${context.stores.map(
  ({ store, availableCents }) =>
    html`<option value="${store.id}"${chosen === store.id ? html` selected` : ''}>${store.name}${withBalance ? ` (${t.available(formatAmount(availableCents, store.currency))})` : ''}</option>`,
)}
</select>`;
  };
  const contactError = errorOf('contactId');
  const beneficiaryChoice = html`<fieldset id="to">
<legend class="field">${t.whom}</legend>
${errorOf('to') && html`<p class="field-error">${errorOf('to')}</p>`}
${choice(
  'contact',
  t.toContact,
  context.contacts.length === 0
    ? html`<p class="muted">${t.noContacts}</p>`
    : html`<label class="field" for="contactId">${t.chooseContact}</label>
${contactError && html`<p class="field-error" id="contactId-error">${contactError}</p>`}
<select class="input" id="contactId" name="contactId"${contactError ? html` aria-invalid="true" aria-describedby="contactId-error"` : ''}>
<option value="">${t.chooseContact}</option>
${context.contacts.map(
  (contact) =>
    html`<option value="${contact.id}"${state.contactId === contact.id ? html` selected` : ''}>${contact.name}${'number' in contact.identifier ? ` (${formatPhone(contact.identifier.number)})` : ''}</option>`,
)}
</select>`,
)}
${choice('new', t.toNew, beneficiaryFields(context.language, state, errorOf, storeCountry))}
${context.stores.length > 1 && choice('store', t.toStore, storeSelect('destinationStoreId', t.chooseStore, state.destinationStoreId, false))}
</fieldset>`;
  // Sending to a contact chosen beforehand (its "send money" link): the contact named, not asked
  // again, so the amount and the button fit a phone's first screen.
  const onlyStore = context.stores.length === 1 ? context.stores[0] : undefined;
  const chosen =
    state.to === 'contact' && !contactError
      ? context.contacts.find((contact) => contact.id === state.contactId)
      : undefined;
  return page(
    context,
    t.formTitle,
    html`<h1>${t.formTitle}</h1>
${errorSummary(t.errorSummary, errors)}
<form method="post" action="${dashboardUrl(context, '/transfers/new')}" novalidate>
${csrfField(context.csrfToken)}
${
  chosen &&
  html`<input type="hidden" name="to" value="contact"><input type="hidden" name="contactId" value="${chosen.id}">
<p data-testid="chosen-contact">${t.toChosen} <strong>${chosen.name}</strong>${'number' in chosen.identifier ? html` <span class="nowrap">${formatPhone(chosen.identifier.number)}</span>` : ''} · <a href="${dashboardUrl(context, '/transfers/new')}">${t.change}</a></p>`
}
${field({ name: 'amount', label: t.amountInFrancs, value: state.amount, error: errorOf('amount'), attributes: html` inputmode="numeric" autocomplete="off"` })}
${!chosen && beneficiaryChoice}
${
  onlyStore
    ? html`<input type="hidden" name="storeId" value="${onlyStore.store.id}">
<p>${t.from}${t.colon}<strong>${onlyStore.store.name}</strong> (${t.available(formatAmount(onlyStore.availableCents, onlyStore.store.currency))})</p>`
    : storeSelect('storeId', t.from, state.storeId, true)
}
${field({ name: 'description', label: t.description, value: state.description, error: errorOf('description'), attributes: html` maxlength="255" autocomplete="off"` })}
<button class="button" type="submit">${t.continue}</button>
</form>
<p class="note"><a href="${dashboardUrl(context, '/transfers')}">${t.cancel}</a></p>`,
  );
}
