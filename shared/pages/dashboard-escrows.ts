import type { EscrowStatus } from '#shared/domain/escrows.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { ListedEscrow } from '#shared/operations/dashboard-escrows.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { doneNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { dashboardTime, formatAmount, formatPhone } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

/**
 * The escrows page (issue 26, item 6): each escrow with its store, amount, payer and payment,
 * status and the end of its hold in the store's time zone; release and refund for the roles that
 * manage escrows, each after a confirmation that shows the money; the page that says an escrow
 * was moved already (a second submit, the API, the hold's end).
 */
const text = {
  fr: {
    title: 'Séquestres',
    intro:
      'Les paiements retenus pour vos ventes de place de marché, jusqu’à leur libération ou leur remboursement.',
    none: 'Aucun séquestre pour l’instant. Un paiement est mis en séquestre par l’API, avec une clé Plateforme.',
    more: (shown: number, total: number) => `Les ${shown} plus récents sur ${total}.`,
    store: 'Point de vente',
    amount: 'Montant du paiement',
    fee: 'Frais',
    held: 'Retenu',
    payer: 'Payeur',
    unknownPayer: 'Pas encore connu',
    payment: 'Paiement',
    seePayment: 'Voir le paiement',
    status: 'État',
    holdUntil: 'Retenu jusqu’au',
    onExpiry: 'À l’échéance',
    expiry: { release: 'libéré au point de vente', refund: 'remboursé au payeur' },
    statuses: {
      pending: 'En attente du paiement',
      held: 'Retenu',
      cancelled: 'Annulé (paiement échoué)',
      released: 'Libéré',
      refunding: 'Remboursement en cours',
      refunded: 'Remboursé',
    } satisfies Record<EscrowStatus, string>,
    release: 'Libérer',
    refund: 'Rembourser',
    releaseNamed: (amount: string) => `Libérer le séquestre de ${amount}`,
    refundNamed: (amount: string) => `Rembourser le séquestre de ${amount}`,
    confirmReleaseTitle: 'Libérer ce séquestre ?',
    confirmReleaseIntro: (store: string) =>
      `L’argent retenu passe sur le solde du point de vente « ${store} », disponible tout de suite. Ce n’est pas réversible.`,
    storeReceives: 'Le point de vente reçoit',
    confirmRelease: 'Oui, libérer',
    confirmRefundTitle: 'Rembourser ce séquestre ?',
    confirmRefundIntro:
      'Le payeur est remboursé du paiement entier sur son numéro, par son opérateur. Les frais pris à l’encaissement vous sont rendus ; le remboursement n’en coûte pas d’autres. Ce n’est pas réversible.',
    payerGets: 'Le payeur reçoit',
    refundFee: 'Frais du remboursement',
    noFee: '0 F CFA (aucun)',
    confirmRefund: 'Oui, rembourser',
    released: 'Le séquestre est libéré : le montant est disponible dans la boutique.',
    refunded: 'Le remboursement du séquestre au payeur est en cours : il apparaît dans la liste.',
    cancel: 'Annuler',
    back: 'Retour aux séquestres',
    movedTitle: 'Ce séquestre n’est plus retenu',
    moved: {
      pending: 'Son paiement n’est pas encore reçu : rien n’est retenu.',
      cancelled: 'Son paiement a échoué : rien n’est retenu.',
      released: 'Il a déjà été libéré au point de vente : rien n’a été fait de plus.',
      refunding: 'Son remboursement au payeur est déjà en cours : rien n’a été fait de plus.',
      refunded: 'Il a déjà été remboursé au payeur : rien n’a été fait de plus.',
      held: 'Il a changé entre-temps : rien n’a été fait. Réessayez depuis la liste.',
    } satisfies Record<EscrowStatus, string>,
    refusedTitle: 'Remboursement refusé',
    refused:
      'L’opérateur du payeur a refusé le versement : le séquestre est de nouveau retenu. Vous pouvez réessayer plus tard ou le libérer.',
  },
  en: {
    title: 'Escrows',
    intro: 'Payments held for your marketplace sales, until they are released or refunded.',
    none: 'No escrows yet. A payment is held in escrow through the API, with a Platform key.',
    more: (shown: number, total: number) => `The ${shown} newest of ${total}.`,
    store: 'Point of sale',
    amount: 'Payment amount',
    fee: 'Fee',
    held: 'Held',
    payer: 'Payer',
    unknownPayer: 'Not known yet',
    payment: 'Payment',
    seePayment: 'See the payment',
    status: 'Status',
    holdUntil: 'Held until',
    onExpiry: 'When the hold ends',
    expiry: { release: 'released to the point of sale', refund: 'refunded to the payer' },
    statuses: {
      pending: 'Waiting for the payment',
      held: 'Held',
      cancelled: 'Cancelled (payment failed)',
      released: 'Released',
      refunding: 'Refund under way',
      refunded: 'Refunded',
    } satisfies Record<EscrowStatus, string>,
    release: 'Release',
    refund: 'Refund',
    releaseNamed: (amount: string) => `Release the escrow of ${amount}`,
    refundNamed: (amount: string) => `Refund the escrow of ${amount}`,
    confirmReleaseTitle: 'Release this escrow?',
    confirmReleaseIntro: (store: string) =>
      `The money held goes to the balance of the point of sale “${store}”, available at once. This cannot be undone.`,
    storeReceives: 'The point of sale receives',
    confirmRelease: 'Yes, release',
    confirmRefundTitle: 'Refund this escrow?',
    confirmRefundIntro:
      'The payer gets the whole payment back on their number, through their provider. The fee taken at collection is given back to you; the refund costs no other. This cannot be undone.',
    payerGets: 'The payer receives',
    refundFee: 'Refund fee',
    noFee: '0 F CFA (none)',
    confirmRefund: 'Yes, refund',
    released: 'The escrow is released: the amount is available in the store.',
    refunded: 'The escrow’s refund to the payer is under way: it shows in the list.',
    cancel: 'Cancel',
    back: 'Back to the escrows',
    movedTitle: 'This escrow is no longer held',
    moved: {
      pending: 'Its payment has not arrived yet: nothing is held.',
      cancelled: 'Its payment failed: nothing is held.',
      released: 'It was already released to the point of sale: nothing more was done.',
      refunding: 'Its refund to the payer is already under way: nothing more was done.',
      refunded: 'It was already refunded to the payer: nothing more was done.',
      held: 'It changed meanwhile: nothing was done. Try again from the list.',
    } satisfies Record<EscrowStatus, string>,
    refusedTitle: 'Refund refused',
    refused:
      'The payer’s provider refused the payout: the escrow is held again. You may try again later, or release it.',
  },
} satisfies Record<Language, unknown>;

export interface EscrowsPageContext extends DashboardPageContext {
  pageUrl: string;
  escrows: readonly ListedEscrow[];
  total: number;
  /** The member may release and refund; otherwise the list alone. */
  canManage: boolean;
  /** What was just done, said at the top. */
  done?: 'released' | 'refunded' | undefined;
}

const when = (language: Language, at: string, timeZone: string) => {
  return dashboardTime(at, timeZone, language);
};

function escrowFacts(language: Language, listed: ListedEscrow, context: DashboardPageContext): SafeHtml {
  const t = text[language];
  const { escrow } = listed;
  return html`<dl class="facts">
<dt>${t.store}</dt><dd>${listed.storeName}</dd>
<dt>${t.amount}</dt><dd>${formatAmount(escrow.amount, escrow.currency)}</dd>
<dt>${t.fee}</dt><dd>${formatAmount(escrow.fees, escrow.currency)}</dd>
<dt>${t.payer}</dt><dd>${escrow.payerPhone ? formatPhone(escrow.payerPhone) : t.unknownPayer}</dd>
<dt>${t.status}</dt><dd data-escrow-status="${escrow.status}">${t.statuses[escrow.status]}</dd>
<dt>${t.holdUntil}</dt><dd>${when(language, escrow.holdUntil, listed.timeZone)}</dd>
<dt>${t.onExpiry}</dt><dd>${t.expiry[escrow.onExpiry]}</dd>
${
  listed.transactionId &&
  html`<dt>${t.payment}</dt><dd><a href="${dashboardUrl(context, `/transactions/${listed.transactionId}`)}">${t.seePayment}</a></dd>`
}
</dl>`;
}

function escrowItem(context: EscrowsPageContext, listed: ListedEscrow): SafeHtml {
  const t = text[context.language];
  const { escrow } = listed;
  const amount = formatAmount(listed.held, escrow.currency);
  return html`<li data-escrow-id="${escrow.id}">
<h2>${amount} · ${t.statuses[escrow.status]}</h2>
${
  context.canManage &&
  escrow.status === 'held' &&
  html`<p><a class="button" href="${dashboardUrl(context, `/escrows/${escrow.id}/release`)}" aria-label="${t.releaseNamed(amount)}">${t.release}</a>
<a class="button button-secondary" href="${dashboardUrl(context, `/escrows/${escrow.id}/refund`)}" aria-label="${t.refundNamed(amount)}">${t.refund}</a></p>`
}
${escrowFacts(context.language, listed, context)}
</li>`;
}

export function escrowsPage(context: EscrowsPageContext): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    section: 'escrows',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
${doneNotice(context.done && t[context.done])}
<p>${t.intro}</p>
${
  context.escrows.length === 0
    ? html`<p>${t.none}</p>`
    : html`${context.total > context.escrows.length && html`<p class="muted">${t.more(context.escrows.length, context.total)}</p>`}
<ul data-testid="escrows">${context.escrows.map((listed) => escrowItem(context, listed))}</ul>`
}
</div>`,
  });
}

export type EscrowAction = 'release' | 'refund';

export function confirmEscrowPage(
  context: DashboardPageContext & { pageUrl: string; csrfToken: string },
  action: EscrowAction,
  listed: ListedEscrow,
): string {
  const t = text[context.language];
  const { escrow } = listed;
  const release = action === 'release';
  const title = release ? t.confirmReleaseTitle : t.confirmRefundTitle;
  const money = release
    ? html`<dt>${t.storeReceives}</dt><dd data-testid="confirm-amount">${formatAmount(listed.held, escrow.currency)}</dd>`
    : html`<dt>${t.payerGets}</dt><dd data-testid="confirm-amount">${formatAmount(escrow.amount, escrow.currency)}</dd>
<dt>${t.refundFee}</dt><dd data-testid="confirm-fee">${t.noFee}</dd>`;
  return dashboardTemplate(context, {
    section: 'escrows',
    title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${title}</h1>
<dl class="facts">
${money}
</dl>
<p>${release ? t.confirmReleaseIntro(listed.storeName) : t.confirmRefundIntro}</p>
<form method="post" action="${dashboardUrl(context, `/escrows/${escrow.id}/${action}`)}">
${csrfField(context.csrfToken)}
<button class="button" type="submit">${release ? t.confirmRelease : t.confirmRefund}</button>
</form>
<p class="note"><a href="${dashboardUrl(context, '/escrows')}">${t.cancel}</a></p>
${escrowFacts(context.language, listed, context)}
</div>`,
  });
}

/** The 409 page: the escrow was moved first (a second submit, the API, the hold's end). */
export function escrowMovedPage(context: DashboardPageContext, status: EscrowStatus): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    section: 'escrows',
    title: t.movedTitle,
    content: html`<div class="content">
<h1>${t.movedTitle}</h1>
<p data-testid="escrow-moved">${t.moved[status]}</p>
<p><a class="button" href="${dashboardUrl(context, '/escrows')}">${t.back}</a></p>
</div>`,
  });
}

/** The payer's provider refused the refund's payout at once: the escrow is held again. */
export function escrowRefundRefusedPage(context: DashboardPageContext): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    section: 'escrows',
    title: t.refusedTitle,
    content: html`<div class="content">
<h1>${t.refusedTitle}</h1>
<p class="notice">${t.refused}</p>
<p><a class="button" href="${dashboardUrl(context, '/escrows')}">${t.back}</a></p>
</div>`,
  });
}
