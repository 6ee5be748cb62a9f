import type { WebhookDeliveryResponse } from '#shared/api/webhook-deliveries.ts';
import type { WebhookBodyFormat, WebhookSubscription } from '#shared/data/webhook-subscription.ts';
import type { Language } from '#shared/domain/languages.ts';
import { webhookEventNames } from '#shared/domain/webhook-events.ts';
import { breakableCode, errorSummary } from '#shared/pages/components.ts';
import {
  copyButtonScript,
  csrfField,
  readableTime,
  shownOnceField,
  shownOnceNotice,
} from '#shared/pages/dashboard-chrome.ts';
import { confirmationPage, doneNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { html } from '#shared/pages/html.ts';

/**
 * The webhooks page (issue 25, item 7): the business's own subscription (where, which events, the
 * body's format), its actions (save, send a test event, a new secret, delete) and the delivery log
 * with re-send; and the page that shows a secret once.
 */
const text = {
  fr: {
    title: 'Webhooks',
    intro:
      'Le service envoie ses événements en POST à votre adresse, signés (en-tête Svc-Signature : HMAC-SHA256 du corps brut avec votre secret).',
    none: 'Aucun abonnement pour l’instant : renseignez l’adresse qui recevra les événements.',
    url: 'Adresse de réception (URL)',
    urlHint: 'https:// vers un hôte public',
    name: 'Nom',
    nameHint: 'Par défaut, le nom de l’entreprise',
    events: 'Événements à recevoir',
    bodyFormat: 'Format du corps',
    formats: {
      flat: 'À plat (par défaut) : les champs de l’événement à la racine',
      envelope: 'Enveloppe : {"event": …, "data": …}',
    },
    create: 'Créer l’abonnement',
    save: 'Enregistrer les modifications',
    eventsRequired: 'Choisissez au moins un événement.',
    urlRequired: 'Renseignez une adresse https:// vers un hôte public.',
    exists: 'L’entreprise a déjà un abonnement : modifiez-le ou supprimez-le.',
    errorSummary: 'Il y a un problème',
    test: 'Envoyer un événement de test',
    rotate: 'Générer un nouveau secret',
    remove: 'Supprimer l’abonnement',
    actions: 'Actions',
    log: 'Journal des envois',
    noDeliveries: 'Aucun envoi pour l’instant.',
    status: { pending: 'En cours', delivered: 'Livré', failed: 'Échec' },
    attempts: 'Tentatives',
    lastAnswer: 'Dernière réponse',
    noAnswer: 'aucune',
    resend: 'Renvoyer',
    resendNamed: (event: string, at: string) => `Renvoyer ${event} du ${at}`,
    secretTitle: 'Secret de signature',
    createdTitle: 'Abonnement créé',
    rotatedTitle: 'Nouveau secret',
    secret: 'Clé secrète',
    secretIntro: 'Vérifiez chaque envoi avec ce secret : HMAC-SHA256 du corps brut, comparé à Svc-Signature.',
    back: 'Retour aux webhooks',
    confirmDeleteTitle: 'Supprimer l’abonnement aux webhooks ?',
    confirmDelete: [
      'Le service n’enverra plus aucun événement à cette adresse, dès maintenant : les paiements, remboursements et transferts qui se terminent ensuite ne seront pas signalés à votre système.',
      'Pour en recevoir à nouveau, il faudra créer un autre abonnement, avec un nouveau secret à installer chez vous.',
    ],
    confirmDeleteWarning: 'la suppression ne peut pas être annulée.',
    confirmDeleteButton: 'Oui, supprimer l’abonnement',
    confirmRotateTitle: 'Générer un nouveau secret ?',
    confirmRotate: [
      'Un nouveau secret remplace l’actuel dès maintenant : chaque envoi suivant sera signé avec le nouveau, affiché une seule fois sur la page suivante.',
      'Tant que votre système vérifie avec l’ancien, il refusera les envois : installez le nouveau tout de suite.',
    ],
    confirmRotateWarning: 'l’ancien secret ne pourra pas être rétabli.',
    confirmRotateButton: 'Oui, générer un nouveau secret',
    subscriptionUrl: 'Adresse',
    deleted: 'L’abonnement a été supprimé : plus aucun événement ne sera envoyé.',
    changed: 'Les modifications de l’abonnement sont enregistrées.',
    secretShown:
      'Ce secret a déjà été affiché une fois et ne peut plus l’être. Si vous ne l’avez pas copié, générez-en un nouveau.',
  },
  en: {
    title: 'Webhooks',
    intro:
      'The service POSTs its events to your address, signed (header Svc-Signature: the HMAC-SHA256 of the raw body with your secret).',
    none: 'No subscription yet: enter the address that will receive the events.',
    url: 'Receiving address (URL)',
    urlHint: 'https:// to a public host',
    name: 'Name',
    nameHint: 'The business’s name by default',
    events: 'Events to receive',
    bodyFormat: 'Body format',
    formats: {
      flat: 'Flat (the default): the event’s fields at the top',
      envelope: 'Envelope: {"event": …, "data": …}',
    },
    create: 'Create the subscription',
    save: 'Save the changes',
    eventsRequired: 'Choose at least one event.',
    urlRequired: 'Enter an https:// address to a public host.',
    exists: 'The business has a subscription already: change it or delete it.',
    errorSummary: 'There is a problem',
    test: 'Send a test event',
    rotate: 'Make a new secret',
    remove: 'Delete the subscription',
    actions: 'Actions',
    log: 'Delivery log',
    noDeliveries: 'Nothing sent yet.',
    status: { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' },
    attempts: 'Attempts',
    lastAnswer: 'Last answer',
    noAnswer: 'none',
    resend: 'Send again',
    resendNamed: (event: string, at: string) => `Send again: ${event} of ${at}`,
    secretTitle: 'Signing secret',
    createdTitle: 'Subscription created',
    rotatedTitle: 'New secret',
    secret: 'Secret',
    secretIntro:
      'Check every delivery with this secret: the HMAC-SHA256 of the raw body, compared with Svc-Signature.',
    back: 'Back to the webhooks',
    confirmDeleteTitle: 'Delete the webhook subscription?',
    confirmDelete: [
      'The service will send no more events to this address, from now on: payments, refunds and transfers that end afterwards will not be reported to your system.',
      'To receive them again, you will have to create another subscription, with a new secret to install on your side.',
    ],
    confirmDeleteWarning: 'deleting it cannot be undone.',
    confirmDeleteButton: 'Yes, delete the subscription',
    confirmRotateTitle: 'Make a new secret?',
    confirmRotate: [
      'A new secret replaces the current one from now on: every later delivery is signed with the new one, shown only once on the next page.',
      'As long as your system checks with the old one, it will refuse the deliveries: install the new one straight away.',
    ],
    confirmRotateWarning: 'the old secret cannot be brought back.',
    confirmRotateButton: 'Yes, make a new secret',
    subscriptionUrl: 'Address',
    deleted: 'The subscription was deleted: no more events will be sent.',
    changed: 'The subscription’s changes are saved.',
    secretShown:
      'This secret was shown once already and cannot be shown again. If you did not copy it, make a new one.',
  },
} satisfies Record<Language, unknown>;

export type WebhookFormField = 'url' | 'events';
export interface WebhookFormState {
  url: string;
  name: string;
  events: readonly string[];
  bodyFormat: WebhookBodyFormat;
  errors: readonly { field: WebhookFormField; message?: string | undefined }[];
  exists?: boolean;
}

export interface WebhooksPageContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
  subscription?: WebhookSubscription | undefined;
  deliveries: readonly WebhookDeliveryResponse[];
  canManage: boolean;
  /** What was just done, said at the top. */
  notice?: WebhooksNotice | undefined;
}

export type WebhooksNotice = 'deleted' | 'changed' | 'secretShown';

function subscriptionForm(context: WebhooksPageContext, form: WebhookFormState | undefined) {
  const t = text[context.language];
  const subscription = context.subscription;
  const state: WebhookFormState = form ?? {
    url: subscription?.url ?? '',
    name: subscription?.name ?? '',
    events: subscription?.events ?? ['TRANSACTION_COMPLETED'],
    bodyFormat: subscription?.bodyFormat ?? 'flat',
    errors: [],
  };
  const messageOf = (field: WebhookFormField, message?: string) =>
    field === 'events' ? t.eventsRequired : (message ?? t.urlRequired);
  const errors = [
    ...(state.exists ? [{ field: 'url', message: t.exists }] : []),
    ...state.errors.map((error) => ({ field: error.field, message: messageOf(error.field, error.message) })),
  ];
  const error = (field: WebhookFormField) => state.errors.find((candidate) => candidate.field === field);
  const urlError = error('url');
  return html`${errorSummary(t.errorSummary, errors)}
<form method="post" action="${dashboardUrl(context, '/webhooks')}" novalidate>
${csrfField(context.csrfToken)}
${subscription && html`<input type="hidden" name="subscriptionId" value="${subscription.id}">`}
<label class="field" for="url">${t.url}</label>
<p class="hint" id="url-hint">${t.urlHint}</p>
${urlError && html`<p class="field-error" id="url-error">${messageOf('url', urlError.message)}</p>`}
<input class="input" id="url" name="url" type="url" maxlength="2048" value="${state.url}" aria-describedby="url-hint${urlError ? ' url-error' : ''}"${urlError ? html` aria-invalid="true"` : ''}>
<label class="field" for="webhook-name">${t.name}</label>
<p class="hint" id="name-hint">${t.nameHint}</p>
<input class="input" id="webhook-name" name="name" maxlength="255" value="${state.name}" aria-describedby="name-hint">
<fieldset id="events"${error('events') ? html` aria-describedby="events-error"` : ''}>
<legend class="field">${t.events}</legend>
${error('events') && html`<p class="field-error" id="events-error">${t.eventsRequired}</p>`}
<div class="providers">${webhookEventNames.map(
    (name) =>
      html`<label class="provider"><input type="checkbox" name="event.${name}"${state.events.includes(name) ? html` checked` : ''}><span class="provider-name">${breakableCode(name)}</span></label>`,
  )}</div>
</fieldset>
<fieldset>
<legend class="field">${t.bodyFormat}</legend>
<div class="providers">${(['flat', 'envelope'] as const).map(
    (format) =>
      html`<label class="provider"><input type="radio" name="bodyFormat" value="${format}"${state.bodyFormat === format ? html` checked` : ''}><span>${t.formats[format]}</span></label>`,
  )}</div>
</fieldset>
<button class="button" type="submit">${subscription ? t.save : t.create}</button>
</form>`;
}

function actions(context: WebhooksPageContext, subscription: WebhookSubscription) {
  const t = text[context.language];
  const post = (path: string, label: string, style: string) =>
    html`<form method="post" action="${dashboardUrl(context, path)}">
${csrfField(context.csrfToken)}
<input type="hidden" name="subscriptionId" value="${subscription.id}">
<button class="button ${style}" type="submit">${label}</button>
</form>`;
  return html`<h2>${t.actions}</h2>
${post('/webhooks/test', t.test, 'button-secondary')}
<p><a class="button button-secondary" href="${dashboardUrl(context, '/webhooks/rotate-secret')}">${t.rotate}</a></p>
<p><a class="button button-decline" href="${dashboardUrl(context, '/webhooks/delete')}">${t.remove}</a></p>`;
}

function deliveryItem(context: WebhooksPageContext, delivery: WebhookDeliveryResponse) {
  const t = text[context.language];
  const last = delivery.attempts.at(-1);
  return html`<li data-delivery-id="${delivery.id}">
<dl class="facts">
<dt>${breakableCode(delivery.eventName)}</dt><dd>${t.status[delivery.status]}</dd>
<dt>${t.attempts}</dt><dd>${delivery.attempts.length}</dd>
<dt>${t.lastAnswer}</dt><dd>${last ? `${last.status ?? t.noAnswer} · ${readableTime(last.at, context)}` : t.noAnswer}</dd>
</dl>
${
  context.canManage &&
  context.subscription &&
  html`<form method="post" action="${dashboardUrl(context, `/webhooks/deliveries/${delivery.id}/resend`)}">
${csrfField(context.csrfToken)}
<button class="button button-secondary" type="submit" aria-label="${t.resendNamed(delivery.eventName, readableTime(delivery.createdAt, context))}">${t.resend}</button>
</form>`
}
</li>`;
}

export function webhooksPage(context: WebhooksPageContext, form?: WebhookFormState): string {
  const t = text[context.language];
  const subscription = context.subscription;
  return dashboardTemplate(context, {
    section: 'webhooks',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
${doneNotice(context.notice && t[context.notice])}
<p>${t.intro}</p>
${!subscription && html`<p>${t.none}</p>`}
${
  subscription &&
  !context.canManage &&
  html`<dl class="facts"><dt>${t.url}</dt><dd>${subscription.url}</dd><dt>${t.name}</dt><dd>${subscription.name}</dd><dt>${t.events}</dt><dd>${subscription.events.join(', ')}</dd></dl>`
}
${context.canManage && subscriptionForm(context, form)}
${context.canManage && subscription && actions(context, subscription)}
<h2>${t.log}</h2>
${
  context.deliveries.length === 0
    ? html`<p>${t.noDeliveries}</p>`
    : html`<ul data-testid="deliveries">${context.deliveries.map((delivery) => deliveryItem(context, delivery))}</ul>`
}
</div>`,
  });
}

/** A subscription's secret, just made (with the subscription) or rotated: shown once. */
export function webhookSecretPage(
  context: DashboardPageContext & { pageUrl: string },
  secret: string,
  made: 'created' | 'rotated',
): string {
  const t = text[context.language];
  const title = made === 'created' ? t.createdTitle : t.rotatedTitle;
  return dashboardTemplate(context, {
    section: 'webhooks',
    title,
    content: html`<div class="content">
<h1>${title}</h1>
<p>${t.secretIntro}</p>
${shownOnceNotice(context.language)}
${shownOnceField(context.language, { id: 'webhook-secret', label: t.secret, value: secret })}
<p><a href="${dashboardUrl(context, '/webhooks')}">${t.back}</a></p>
</div>
${copyButtonScript()}`,
  });
}

/** A secret kept for the page after the post that made it (post, then redirect). */
export interface MadeSecret {
  secret: string;
  made: 'created' | 'rotated';
}

/** The step before the subscription is deleted, or its secret replaced. */
export function confirmWebhookActionPage(
  context: DashboardPageContext & { pageUrl: string; csrfToken: string },
  action: 'delete' | 'rotate',
  subscription: Pick<WebhookSubscription, 'id' | 'url' | 'name'>,
): string {
  const t = text[context.language];
  const remove = action === 'delete';
  return confirmationPage(context, {
    section: 'webhooks',
    title: remove ? t.confirmDeleteTitle : t.confirmRotateTitle,
    facts: [
      [t.name, subscription.name],
      [t.subscriptionUrl, subscription.url],
    ],
    consequences: remove ? t.confirmDelete : t.confirmRotate,
    warning: remove ? t.confirmDeleteWarning : t.confirmRotateWarning,
    action: dashboardUrl(context, remove ? '/webhooks/delete' : '/webhooks/rotate-secret'),
    fields: { subscriptionId: subscription.id },
    confirm: remove ? t.confirmDeleteButton : t.confirmRotateButton,
    backUrl: dashboardUrl(context, '/webhooks'),
  });
}
