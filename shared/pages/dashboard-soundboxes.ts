import type { Language } from '#shared/domain/languages.ts';
import type { ListedSoundbox } from '#shared/operations/dashboard-soundboxes.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { dashboardTime, formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

/**
 * The soundboxes page (issue 26, item 6): each terminal with its store, online or offline, when it
 * was last heard from (in its store's time zone), its last payment, and "show a test QR" for the
 * roles that ask for payments (the test is a real 1 F CFA payment request, labelled as a test).
 */
const text = {
  fr: {
    title: 'Soundbox',
    intro:
      'Les terminaux QR de vos caisses. Un terminal est en ligne s’il est connecté ou s’il a donné signe de vie depuis moins de 90 secondes.',
    none: 'Aucune Soundbox pour l’instant. Un terminal est enregistré pour un point de vente par l’opérateur du service.',
    store: 'Point de vente',
    state: 'État',
    online: 'En ligne',
    offline: 'Hors ligne',
    lastSeen: 'Dernier signe de vie',
    never: 'Jamais',
    lastPayment: 'Dernier paiement',
    noPayment: 'Aucun',
    statuses: { pending: 'en attente', success: 'réussi', error: 'échoué' },
    seePayment: 'Voir le paiement',
    test: 'Afficher un QR de test',
    testNamed: (id: string) => `Afficher un QR de test sur ${id}`,
    testHint:
      'Une vraie demande de paiement de 1 F CFA, marquée « QR de test », s’affiche sur le terminal ; elle expire sans paiement.',
    sent: (id: string) => `QR de test envoyé à ${id}.`,
    sentOffline: (id: string) =>
      `QR de test envoyé à ${id}, qui est hors ligne : il l’affichera en se reconnectant (dans les 15 minutes).`,
    ceilingTitle: 'Encaissement pas encore ouvert',
    ceiling:
      'Votre entreprise ne peut pas encore encaisser (plafond de son niveau de vérification) : le QR de test, qui est une vraie demande de paiement, n’a pas été envoyé.',
    back: 'Retour aux Soundbox',
  },
  en: {
    title: 'Soundboxes',
    intro:
      'The QR terminals of your tills. A terminal is online while connected, or when heard from within the last 90 seconds.',
    none: 'No soundboxes yet. A terminal is registered to a point of sale by the service’s operator.',
    store: 'Point of sale',
    state: 'State',
    online: 'Online',
    offline: 'Offline',
    lastSeen: 'Last seen',
    never: 'Never',
    lastPayment: 'Last payment',
    noPayment: 'None',
    statuses: { pending: 'pending', success: 'succeeded', error: 'failed' },
    seePayment: 'See the payment',
    test: 'Show a test QR',
    testNamed: (id: string) => `Show a test QR on ${id}`,
    testHint:
      'A real payment request of 1 F CFA, labelled “Test QR”, shows on the terminal; it expires unpaid.',
    sent: (id: string) => `Test QR sent to ${id}.`,
    sentOffline: (id: string) =>
      `Test QR sent to ${id}, which is offline: it will show it when it reconnects (within 15 minutes).`,
    ceilingTitle: 'Collecting is not open yet',
    ceiling:
      'Your business cannot collect yet (its verification level’s ceiling): the test QR, a real payment request, was not sent.',
    back: 'Back to the soundboxes',
  },
} satisfies Record<Language, unknown>;

export interface SoundboxesPageContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
  soundboxes: readonly ListedSoundbox[];
  /** The member may ask for payments, so may show a test QR; otherwise the list alone. */
  canTest: boolean;
  /** A test QR just sent, from the address the post redirected to. */
  sent?: { deviceId: string; online: boolean } | undefined;
}

const when = (language: Language, at: string, timeZone: string) => {
  return dashboardTime(at, timeZone, language);
};

function lastPayment(context: SoundboxesPageContext, listed: ListedSoundbox): SafeHtml | string {
  const t = text[context.language];
  const payment = listed.lastPayment;
  if (!payment) return t.noPayment;
  const summary = `${formatAmount(payment.amountCents, payment.currency)}, ${t.statuses[payment.status]}, ${when(context.language, payment.createdAt, listed.timeZone)}`;
  return html`${summary}${
    payment.transaction &&
    html` · <a href="${dashboardUrl(context, `/transactions/${payment.transaction.id}`)}">${t.seePayment}</a>`
  }`;
}

function soundboxItem(context: SoundboxesPageContext, listed: ListedSoundbox): SafeHtml {
  const t = text[context.language];
  const { device } = listed;
  return html`<li data-device-id="${device.id}">
<h2>${device.id} · <span data-testid="device-state">${listed.online ? t.online : t.offline}</span></h2>
${
  context.canTest &&
  html`<form method="post" action="${dashboardUrl(context, `/soundboxes/${encodeURIComponent(device.id)}/test-qr`)}">
${csrfField(context.csrfToken)}
<button class="button button-secondary" type="submit" aria-label="${t.testNamed(device.id)}">${t.test}</button>
</form>`
}
<dl class="facts">
<dt>${t.store}</dt><dd>${listed.storeName}</dd>
<dt>${t.state}</dt><dd>${listed.online ? t.online : t.offline}</dd>
<dt>${t.lastSeen}</dt><dd>${device.lastSeenAt ? when(context.language, device.lastSeenAt, listed.timeZone) : t.never}</dd>
<dt>${t.lastPayment}</dt><dd data-testid="last-payment">${lastPayment(context, listed)}</dd>
</dl>
</li>`;
}

export function soundboxesPage(context: SoundboxesPageContext): string {
  const t = text[context.language];
  const sent = context.sent;
  return dashboardTemplate(context, {
    section: 'soundboxes',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
${sent && html`<p class="notice" role="status" data-testid="test-qr-sent">${sent.online ? t.sent(sent.deviceId) : t.sentOffline(sent.deviceId)}</p>`}
<p>${t.intro}</p>
${context.canTest && context.soundboxes.length > 0 && html`<p class="hint">${t.testHint}</p>`}
${
  context.soundboxes.length === 0
    ? html`<p>${t.none}</p>`
    : html`<ul data-testid="soundboxes">${context.soundboxes.map((listed) => soundboxItem(context, listed))}</ul>`
}
</div>`,
  });
}

/** The business may not collect yet: the test QR, a real payment request, was refused. */
export function testQrRefusedPage(context: DashboardPageContext): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    section: 'soundboxes',
    title: t.ceilingTitle,
    content: html`<div class="content">
<h1>${t.ceilingTitle}</h1>
<p class="notice">${t.ceiling}</p>
<p><a class="button" href="${dashboardUrl(context, '/soundboxes')}">${t.back}</a></p>
</div>`,
  });
}
