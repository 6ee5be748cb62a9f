import { windowDays } from '#shared/data/link-payments.ts';
import type { PaymentLink } from '#shared/data/payment-link.ts';
import type { Store } from '#shared/data/store.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { LinkFormError } from '#shared/operations/dashboard-payment-links.ts';
import { errorSummary } from '#shared/pages/components.ts';
import { copyableField, copyButtonScript, csrfField } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { stateWord } from '#shared/pages/dashboard-transactions.ts';
import { type DashboardPageContext, dashboardUrl, transactionPath } from '#shared/pages/dashboard-url.ts';
import { dashboardTime, formatAmount, maskPhone } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { inlineQr } from '#shared/pages/qr-code.ts';

/**
 * The payment links pages (issue 26, item 3): the list, the form that makes a link, and a link's
 * page, which shares it (its address to copy, a WhatsApp message, its QR code, a printable card),
 * switches it off and on and lists its payments. Dates are the store's (its country's time zone).
 */
export const linkText = {
  fr: {
    title: 'Liens de paiement',
    intro: 'Un lien demande un montant : partagez-le, le client paie depuis son téléphone.',
    create: 'Créer un lien de paiement',
    none: 'Aucun lien pour l’instant.',
    amount: 'Montant',
    kind: 'Utilisation',
    single: 'Un seul paiement',
    reusable: 'Réutilisable',
    state: 'État',
    on: 'Actif',
    off: 'Désactivé',
    paid: 'Payé',
    payments: 'Paiements reçus',
    created: 'Créé le',
    store: 'Point de vente',
    previous: 'Page précédente',
    next: 'Page suivante',
    newTitle: 'Nouveau lien de paiement',
    chooseStore: 'Choisissez un point de vente',
    linkTitle: 'Ce que le client paie',
    linkTitleHint: 'Il le lit sur la page de paiement, par exemple « Deux pagnes wax, livraison comprise ».',
    amountLabel: 'Montant en francs CFA',
    amountHint: 'Par exemple 1 500',
    kindHintSingle: 'Le lien se ferme après le premier paiement.',
    kindHintReusable: 'Plusieurs clients peuvent payer avec le même lien.',
    submit: 'Créer le lien',
    cancel: 'Annuler',
    errorSummary: 'Il y a un problème',
    errors: {
      storeId: 'Choisissez le point de vente qui reçoit le paiement.',
      titleMissing: 'Dites ce que le client paie.',
      titleLong: 'Le titre doit compter au plus 255 caractères.',
      amountMissing: 'Indiquez le montant.',
      amountInvalid: 'Écrivez le montant en francs entiers, avec des chiffres seulement, par exemple 1 500.',
      amountSmall: 'Le montant doit être d’au moins 100 F CFA.',
      amountLarge: 'Le montant est trop élevé.',
    },
    address: 'Adresse du lien',
    whatsapp: 'Partager sur WhatsApp',
    whatsappMessage: (title: string, amount: string, store: string, url: string) =>
      `Bonjour, voici le lien pour payer « ${title} » (${amount}) à ${store} : ${url}`,
    qrLabel: (title: string) => `Code QR du lien « ${title} »`,
    qrTitle: 'Code QR',
    qrSvg: 'Télécharger le code QR (SVG)',
    qrPng: 'Télécharger le code QR (PNG)',
    card: 'Carte « Scannez pour payer » à imprimer (A6)',
    offNotice: 'Ce lien est désactivé : les clients qui l’ouvrent ne peuvent pas payer.',
    paidNotice: 'Ce lien à paiement unique a été payé : il ne peut plus recevoir de paiement.',
    switchOff: 'Désactiver le lien',
    switchOffHint: 'Les clients ne pourront plus payer avec ce lien tant qu’il est désactivé.',
    switchOn: 'Réactiver le lien',
    alreadyUsed: 'Ce lien à paiement unique a déjà été payé : il ne peut pas être réactivé.',
    paymentsTitle: 'Paiements par ce lien',
    paymentsNote: (days: number) => `Les ${days} derniers jours.`,
    noPayments: 'Aucun paiement par ce lien pour l’instant.',
    payer: 'Client',
    open: 'Voir la transaction',
    back: 'Retour aux liens',
  },
  en: {
    title: 'Payment links',
    intro: 'A link asks for an amount: share it, and the customer pays from their phone.',
    create: 'Create a payment link',
    none: 'No links yet.',
    amount: 'Amount',
    kind: 'Use',
    single: 'One payment',
    reusable: 'Reusable',
    state: 'State',
    on: 'On',
    off: 'Switched off',
    paid: 'Paid',
    payments: 'Payments received',
    created: 'Created',
    store: 'Point of sale',
    previous: 'Previous page',
    next: 'Next page',
    newTitle: 'New payment link',
    chooseStore: 'Choose a point of sale',
    linkTitle: 'What the customer pays for',
    linkTitleHint: 'They read it on the payment page, for example “Two wax cloths, delivery included”.',
    amountLabel: 'Amount in CFA francs',
    amountHint: 'For example 1 500',
    kindHintSingle: 'The link closes after the first payment.',
    kindHintReusable: 'Several customers can pay with the same link.',
    submit: 'Create the link',
    cancel: 'Cancel',
    errorSummary: 'There is a problem',
    errors: {
      storeId: 'Choose the point of sale that receives the payment.',
      titleMissing: 'Say what the customer pays for.',
      titleLong: 'The title must be at most 255 characters long.',
      amountMissing: 'Enter the amount.',
      amountInvalid: 'Write the amount in whole francs, in digits only, for example 1 500.',
      amountSmall: 'The amount must be at least 100 F CFA.',
      amountLarge: 'The amount is too large.',
    },
    address: 'The link’s address',
    whatsapp: 'Share on WhatsApp',
    whatsappMessage: (title: string, amount: string, store: string, url: string) =>
      `Hello, here is the link to pay “${title}” (${amount}) to ${store}: ${url}`,
    qrLabel: (title: string) => `QR code of the link “${title}”`,
    qrTitle: 'QR code',
    qrSvg: 'Download the QR code (SVG)',
    qrPng: 'Download the QR code (PNG)',
    card: 'Printable “Scan to pay” card (A6)',
    offNotice: 'This link is switched off: customers who open it cannot pay.',
    paidNotice: 'This single-use link was paid: it cannot receive payments any more.',
    switchOff: 'Switch the link off',
    switchOffHint: 'Customers will not be able to pay with this link while it is off.',
    switchOn: 'Switch the link on again',
    alreadyUsed: 'This single-use link was paid already: it cannot be switched on again.',
    paymentsTitle: 'Payments through this link',
    paymentsNote: (days: number) => `The last ${days} days.`,
    noPayments: 'No payments through this link yet.',
    payer: 'Customer',
    open: 'See the transaction',
    back: 'Back to the links',
  },
} satisfies Record<Language, unknown>;

/** The link's payer page: what is shared. */
export const payerUrl = (baseUrl: string, link: Pick<PaymentLink, 'id'>) => `${baseUrl}/pl/${link.id}`;

/** `23/11/2026 à 14:05`: where the store is. */
export function storeTime(at: string, link: Pick<PaymentLink, 'storeCountry'>, language: Language): string {
  return dashboardTime(at, storeTimeZone({ country: link.storeCountry }), language);
}

function linkState(link: PaymentLink, language: Language): string {
  const t = linkText[language];
  if (!link.allowMultiplePayments && link.paidBy !== undefined) return t.paid;
  return link.active ? t.on : t.off;
}

export interface LinksPageContext extends DashboardPageContext {
  pageUrl: string;
  links: readonly PaymentLink[];
  total: number;
  currentPage: number;
  perPage: number;
  canManage: boolean;
}

function linkItem(context: LinksPageContext, link: PaymentLink) {
  const t = linkText[context.language];
  return html`<li data-link-id="${link.id}">
<h2><a href="${dashboardUrl(context, `/payment-links/${link.id}`)}">${link.title}</a></h2>
<dl class="facts">
<dt>${t.amount}</dt><dd class="nowrap">${formatAmount(link.amountCents, link.currency)}</dd>
<dt>${t.kind}</dt><dd>${link.allowMultiplePayments ? t.reusable : t.single}</dd>
<dt>${t.state}</dt><dd data-testid="link-state">${linkState(link, context.language)}</dd>
<dt>${t.payments}</dt><dd>${String(link.paymentsCount)}</dd>
<dt>${t.store}</dt><dd>${link.storeName}</dd>
<dt>${t.created}</dt><dd>${storeTime(link.createdAt, link, context.language)}</dd>
</dl>
</li>`;
}

export function paymentLinksPage(context: LinksPageContext): string {
  const t = linkText[context.language];
  const pages = Math.max(1, Math.ceil(context.total / context.perPage));
  const pageLink = (page: number, label: string) => {
    const url = new URL(dashboardUrl(context, '/payment-links'));
    url.searchParams.set('page', String(page));
    return html`<a href="${url.href}">${label}</a>`;
  };
  return dashboardTemplate(context, {
    section: 'paymentLinks',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
<p>${t.intro}</p>
${context.canManage && html`<p><a class="button" href="${dashboardUrl(context, '/payment-links/new')}">${t.create}</a></p>`}
${
  context.links.length === 0
    ? html`<p>${t.none}</p>`
    : html`<ul data-testid="payment-links">${context.links.map((link) => linkItem(context, link))}</ul>`
}
${
  pages > 1 &&
  html`<p class="note">${context.currentPage > 1 && pageLink(context.currentPage - 1, t.previous)} ${context.currentPage < pages && pageLink(context.currentPage + 1, t.next)}</p>`
}
</div>`,
  });
}

export interface LinkFormState {
  storeId: string;
  title: string;
  amount: string;
  reusable: boolean;
  errors: readonly LinkFormError[];
}

function errorMessage(language: Language, error: LinkFormError): string {
  const e = linkText[language].errors;
  switch (error.field) {
    case 'storeId':
      return e.storeId;
    case 'title':
      return { missing: e.titleMissing, long: e.titleLong }[error.problem];
    case 'amount':
      return {
        missing: e.amountMissing,
        invalid: e.amountInvalid,
        small: e.amountSmall,
        large: e.amountLarge,
      }[error.problem];
  }
}

export function newLinkPage(
  context: DashboardPageContext & { pageUrl: string; csrfToken: string; stores: readonly Store[] },
  form?: LinkFormState,
): string {
  const t = linkText[context.language];
  const state: LinkFormState = form ?? {
    storeId: context.stores.length === 1 ? (context.stores[0]?.id ?? '') : '',
    title: '',
    amount: '',
    reusable: false,
    errors: [],
  };
  const errors = state.errors.map((error) => ({
    field: error.field,
    message: errorMessage(context.language, error),
  }));
  const errorOf = (field: string) => errors.find((error) => error.field === field)?.message;
  const describedBy = (field: string, hint: boolean) =>
    [hint ? `${field}-hint` : '', errorOf(field) ? `${field}-error` : ''].filter(Boolean).join(' ');
  const invalid = (field: string) => (errorOf(field) ? html` aria-invalid="true"` : '');
  const fieldError = (field: string) =>
    errorOf(field) && html`<p class="field-error" id="${field}-error">${errorOf(field)}</p>`;
  const described = (field: string, hint: boolean) => {
    const ids = describedBy(field, hint);
    return ids ? html` aria-describedby="${ids}"` : '';
  };
  return dashboardTemplate(context, {
    section: 'paymentLinks',
    title: errors.length > 0 ? `${t.errorSummary} – ${t.newTitle}` : t.newTitle,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.newTitle}</h1>
${errorSummary(t.errorSummary, errors)}
<form method="post" action="${dashboardUrl(context, '/payment-links')}" novalidate>
${csrfField(context.csrfToken)}
<label class="field" for="amount">${t.amountLabel}</label>
<p class="hint" id="amount-hint">${t.amountHint}</p>
${fieldError('amount')}
<input class="input" id="amount" name="amount" value="${state.amount}" inputmode="numeric" autocomplete="off" maxlength="24"${described('amount', true)}${invalid('amount')}>
<label class="field" for="title">${t.linkTitle}</label>
<p class="hint" id="title-hint">${t.linkTitleHint}</p>
${fieldError('title')}
<input class="input" id="title" name="title" value="${state.title}" maxlength="255"${described('title', true)}${invalid('title')}>
<label class="field" for="storeId">${t.store}</label>
${fieldError('storeId')}
<select class="input" id="storeId" name="storeId"${described('storeId', false)}${invalid('storeId')}>
<option value="">${t.chooseStore}</option>
${context.stores.map((store) => html`<option value="${store.id}"${state.storeId === store.id ? html` selected` : ''}>${store.name}</option>`)}
</select>
<fieldset>
<legend class="field">${t.kind}</legend>
<div class="providers">
<label class="provider"><input type="radio" name="reusable" value="false"${state.reusable ? '' : html` checked`}><span><span class="provider-name">${t.single}</span><br><span class="muted">${t.kindHintSingle}</span></span></label>
<label class="provider"><input type="radio" name="reusable" value="true"${state.reusable ? html` checked` : ''}><span><span class="provider-name">${t.reusable}</span><br><span class="muted">${t.kindHintReusable}</span></span></label>
</div>
</fieldset>
<button class="button" type="submit">${t.submit}</button>
</form>
<p class="note"><a href="${dashboardUrl(context, '/payment-links')}">${t.cancel}</a></p>
</div>`,
  });
}

export interface LinkPageContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
  link: PaymentLink;
  payments: readonly TransactionRecord[];
  paymentDays: number;
  qr: SafeHtml;
  canManage: boolean;
  /** Switching on was refused: a single-use link paid already. */
  alreadyUsed?: boolean;
}

function paymentItem(context: LinkPageContext, payment: TransactionRecord) {
  const t = linkText[context.language];
  return html`<li data-transaction-id="${payment.id}">
<dl class="facts">
<dt>${t.created}</dt><dd>${storeTime(payment.createdAt, context.link, context.language)}</dd>
<dt>${t.amount}</dt><dd class="nowrap">${formatAmount(payment.amount.amount, payment.amount.currency)}</dd>
<dt>${t.state}</dt><dd>${stateWord(context.language, payment)}</dd>
${payment.counterpartIdentifier && html`<dt>${t.payer}</dt><dd class="nowrap">${maskPhone(payment.counterpartIdentifier)}</dd>`}
</dl>
<p><a href="${dashboardUrl(context, transactionPath(payment))}">${t.open}</a></p>
</li>`;
}

export function paymentLinkPage(context: LinkPageContext): string {
  const t = linkText[context.language];
  const { link } = context;
  const url = payerUrl(context.baseUrl, link);
  const amount = formatAmount(link.amountCents, link.currency);
  const paid = !link.allowMultiplePayments && link.paidBy !== undefined;
  const whatsapp = `https://wa.me/?text=${encodeURIComponent(t.whatsappMessage(link.title, amount, link.storeName, url))}`;
  const path = `/payment-links/${link.id}`;
  const qrUrl = (format: 'svg' | 'png') => {
    const target = new URL(dashboardUrl(context, `${path}/qr`));
    target.searchParams.set('format', format);
    return target.href;
  };
  return dashboardTemplate(context, {
    section: 'paymentLinks',
    title: link.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${link.title}</h1>
<p class="amount">${amount}</p>
<p class="muted">${link.storeName} · ${link.allowMultiplePayments ? t.reusable : t.single} · <span data-testid="link-state">${linkState(link, context.language)}</span></p>
${context.alreadyUsed && html`<p class="alert" role="alert">${t.alreadyUsed}</p>`}
${paid ? html`<p class="notice">${t.paidNotice}</p>` : !link.active && html`<p class="notice">${t.offNotice}</p>`}
${copyableField(context.language, { id: 'link-url', label: t.address, value: url })}
<a class="button" href="${whatsapp}" rel="noopener noreferrer" target="_blank">${t.whatsapp}</a>
<h2>${t.qrTitle}</h2>
<p>${context.qr}</p>
<p><a href="${qrUrl('svg')}" download>${t.qrSvg}</a></p>
<p><a href="${qrUrl('png')}" download>${t.qrPng}</a></p>
<p><a href="${dashboardUrl(context, `${path}/card`)}">${t.card}</a></p>
${
  context.canManage &&
  !paid &&
  html`<form method="post" action="${dashboardUrl(context, `${path}/switch`)}">
${csrfField(context.csrfToken)}
<input type="hidden" name="active" value="${link.active ? 'false' : 'true'}">
${link.active && html`<p class="hint">${t.switchOffHint}</p>`}
<button class="button ${link.active ? 'button-decline' : 'button-secondary'}" type="submit">${link.active ? t.switchOff : t.switchOn}</button>
</form>`
}
<h2>${t.paymentsTitle}</h2>
<p class="muted">${t.paymentsNote(context.paymentDays)}</p>
${
  context.payments.length === 0
    ? html`<p>${t.noPayments}</p>`
    : html`<ul data-testid="link-payments">${context.payments.map((payment) => paymentItem(context, payment))}</ul>`
}
<p class="note"><a href="${dashboardUrl(context, '/payment-links')}">${t.back}</a></p>
</div>
${copyButtonScript()}`,
  });
}

/** The link's page with its QR code drawn, its payments as read over the last `windowDays`. */
export async function paymentLinkPageWithQr(
  context: Omit<LinkPageContext, 'qr' | 'paymentDays' | 'pageUrl'>,
): Promise<string> {
  const { link } = context;
  const qr = await inlineQr(
    payerUrl(context.baseUrl, link),
    linkText[context.language].qrLabel(link.title),
    240,
  );
  return paymentLinkPage({
    ...context,
    pageUrl: `${context.baseUrl}/dashboard/payment-links/${link.id}`,
    qr,
    paymentDays: windowDays,
  });
}
