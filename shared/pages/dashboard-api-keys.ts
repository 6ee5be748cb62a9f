import type { Store } from '#shared/data/store.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { KeyKindChoice, ListedKey } from '#shared/operations/dashboard-api-keys.ts';
import { errorSummary } from '#shared/pages/components.ts';
import {
  copyButtonScript,
  csrfField,
  readableTime,
  shownOnceField,
  shownOnceNotice,
} from '#shared/pages/dashboard-chrome.ts';
import { doneNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { plural } from '#shared/pages/format.ts';
import { html } from '#shared/pages/html.ts';

/**
 * The API keys page (issue 25, item 6): the business's keys with who made them and when they were
 * last used, the form that makes one, the page that shows a new key's id and secret once, and the
 * confirmation step before a key is revoked.
 */
const text = {
  fr: {
    title: 'Clés d’API',
    intro: (active: number, max: number) =>
      `${plural('fr', active, { one: '# clé active', other: '# clés actives' })} sur ${max} au plus.`,
    noAccess:
      'L’accès à l’API de cette entreprise n’est pas encore ouvert : ses clés reçoivent 403 (business_not_enabled_for_api_access) jusqu’au premier niveau de vérification.',
    none: 'Aucune clé pour l’instant.',
    keyId: 'Identifiant de la clé',
    secret: 'Clé secrète',
    kind: 'Type',
    kinds: { merchant: 'Marchand', platform: 'Plateforme', store_platform: 'Plateforme, un point de vente' },
    kindHints: {
      merchant: 'L’intégration de votre entreprise.',
      platform: 'Un intégrateur qui agit pour l’entreprise (séquestre compris).',
      store_platform: 'Comme Plateforme, limitée à un point de vente.',
    },
    store: 'Point de vente',
    chooseStore: 'Choisissez un point de vente',
    createdBy: 'Créée par',
    createdAt: 'Créée le',
    lastUsed: 'Dernière utilisation',
    never: 'Jamais',
    unknownMember: 'Un fournisseur de services ou l’opérateur',
    revokedAt: 'Révoquée le',
    revoke: 'Révoquer',
    revokeNamed: (name: string) => `Révoquer la clé « ${name} »`,
    createTitle: 'Créer une clé',
    name: 'Nom de la clé',
    nameHint: 'Pour la reconnaître, par exemple « Site web » ou « Caisse »',
    create: 'Créer la clé',
    nameRequired: 'Donnez un nom à la clé.',
    storeRequired: 'Choisissez le point de vente de la clé.',
    limit: (max: number) =>
      `Vous avez déjà ${max} clés actives : révoquez-en une avant d’en créer une autre.`,
    errorSummary: 'Il y a un problème',
    createdTitle: 'Clé créée',
    createdIntro: (name: string) =>
      `La clé « ${name} » est prête. Envoyez ces deux valeurs dans X-API-KEY-ID et X-API-KEY.`,
    back: 'Retour aux clés',
    confirmTitle: 'Révoquer cette clé ?',
    confirmIntro: (name: string) =>
      `La clé « ${name} » ne sera plus acceptée : l’API répondra 401 à toute requête qui la présente, dès maintenant. Ce n’est pas réversible.`,
    confirm: 'Oui, révoquer la clé',
    cancel: 'Annuler',
    created: (name: string) =>
      `La clé « ${name} » a été créée. Sa clé secrète n’est affichée qu’une fois : si vous ne l’avez pas copiée, révoquez la clé et créez-en une autre.`,
    revoked: 'La clé a été révoquée : l’API la refuse désormais.',
  },
  en: {
    title: 'API keys',
    intro: (active: number, max: number) =>
      `${plural('en', active, { one: '# active key', other: '# active keys' })} of ${max} at most.`,
    noAccess:
      'This business’s API access is not open yet: its keys get 403 (business_not_enabled_for_api_access) until the first verification level.',
    none: 'No keys yet.',
    keyId: 'Key ID',
    secret: 'Secret',
    kind: 'Kind',
    kinds: { merchant: 'Merchant', platform: 'Platform', store_platform: 'Platform, one point of sale' },
    kindHints: {
      merchant: 'Your business’s own integration.',
      platform: 'An integrator acting for the business (escrows included).',
      store_platform: 'Like Platform, limited to one point of sale.',
    },
    store: 'Point of sale',
    chooseStore: 'Choose a point of sale',
    createdBy: 'Created by',
    createdAt: 'Created',
    lastUsed: 'Last used',
    never: 'Never',
    unknownMember: 'A service provider or the operator',
    revokedAt: 'Revoked',
    revoke: 'Revoke',
    revokeNamed: (name: string) => `Revoke the key “${name}”`,
    createTitle: 'Create a key',
    name: 'Key name',
    nameHint: 'To recognise it, for example “Website” or “Till”',
    create: 'Create the key',
    nameRequired: 'Give the key a name.',
    storeRequired: 'Choose the key’s point of sale.',
    limit: (max: number) => `You already have ${max} active keys: revoke one before creating another.`,
    errorSummary: 'There is a problem',
    createdTitle: 'Key created',
    createdIntro: (name: string) =>
      `The key “${name}” is ready. Send these two values as X-API-KEY-ID and X-API-KEY.`,
    back: 'Back to the keys',
    confirmTitle: 'Revoke this key?',
    confirmIntro: (name: string) =>
      `The key “${name}” will no longer be accepted: the API will answer 401 to any request that presents it, from now on. This cannot be undone.`,
    confirm: 'Yes, revoke the key',
    cancel: 'Cancel',
    created: (name: string) =>
      `The key “${name}” was created. Its secret is shown only once: if you did not copy it, revoke the key and create another.`,
    revoked: 'The key was revoked: the API refuses it from now on.',
  },
} satisfies Record<Language, unknown>;

export type KeyFormField = 'name' | 'storeId';
export interface KeyFormState {
  name: string;
  kind: KeyKindChoice;
  storeId: string;
  errors: readonly KeyFormField[];
  limitReached?: boolean;
}

export interface ApiKeysPageContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
  keys: readonly ListedKey[];
  active: number;
  maxActive: number;
  apiAccess: boolean;
  stores: readonly Store[];
  /** The member may make and revoke keys; otherwise the list alone. */
  canManage: boolean;
  /** What was just done, said at the top. */
  notice?: { created: string } | { revoked: true } | undefined;
}

/** A key just made, as its page shows it once. */
export interface CreatedKey {
  id: string;
  name: string;
  secret: string;
}

const kindChoices: readonly KeyKindChoice[] = ['merchant', 'platform', 'store_platform'];

function keyItem(context: ApiKeysPageContext, apiKey: ListedKey) {
  const t = text[context.language];
  const kind = apiKey.kind === 'merchant' ? 'merchant' : apiKey.storeId ? 'store_platform' : 'platform';
  return html`<li data-key-id="${apiKey.id}">
<h3>${apiKey.name}</h3>
<dl class="facts">
<dt>${t.keyId}</dt><dd class="receipt-id">${apiKey.id}</dd>
<dt>${t.kind}</dt><dd>${t.kinds[kind]}${apiKey.storeName ? ` (${apiKey.storeName})` : ''}</dd>
<dt>${t.createdBy}</dt><dd>${apiKey.createdByName ?? t.unknownMember}</dd>
<dt>${t.createdAt}</dt><dd>${readableTime(apiKey.createdAt, context)}</dd>
<dt>${t.lastUsed}</dt><dd>${apiKey.lastUsedAt ? readableTime(apiKey.lastUsedAt, context) : t.never}</dd>
${apiKey.revokedAt && html`<dt>${t.revokedAt}</dt><dd>${readableTime(apiKey.revokedAt, context)}</dd>`}
</dl>
${
  context.canManage &&
  !apiKey.revokedAt &&
  html`<p><a class="button button-decline" href="${dashboardUrl(context, `/api-keys/${apiKey.id}/revoke`)}" aria-label="${t.revokeNamed(apiKey.name)}">${t.revoke}</a></p>`
}
</li>`;
}

function createForm(context: ApiKeysPageContext, form: KeyFormState | undefined) {
  const t = text[context.language];
  const state: KeyFormState = form ?? { name: '', kind: 'merchant', storeId: '', errors: [] };
  const messages = {
    name: t.nameRequired,
    storeId: t.storeRequired,
  } satisfies Record<KeyFormField, string>;
  const errors = [
    ...(state.limitReached ? [{ field: 'name', message: t.limit(context.maxActive) }] : []),
    ...state.errors.map((field) => ({ field, message: messages[field] })),
  ];
  const invalid = (field: KeyFormField) => state.errors.includes(field);
  return html`<h2 id="create">${t.createTitle}</h2>
${errorSummary(t.errorSummary, errors)}
<form method="post" action="${dashboardUrl(context, '/api-keys')}" novalidate>
${csrfField(context.csrfToken)}
<label class="field" for="name">${t.name}</label>
<p class="hint" id="name-hint">${t.nameHint}</p>
${invalid('name') && html`<p class="field-error" id="name-error">${messages.name}</p>`}
<input class="input" id="name" name="name" maxlength="64" value="${state.name}" aria-describedby="name-hint${invalid('name') ? ' name-error' : ''}"${invalid('name') ? html` aria-invalid="true"` : ''}>
<fieldset>
<legend class="field">${t.kind}</legend>
<div class="providers">${kindChoices.map(
    (kind) =>
      html`<label class="provider"><input type="radio" name="kind" value="${kind}"${state.kind === kind ? html` checked` : ''}><span><span class="provider-name">${t.kinds[kind]}</span><br><span class="muted">${t.kindHints[kind]}</span></span></label>`,
  )}</div>
</fieldset>
<label class="field" for="storeId">${t.store}</label>
${invalid('storeId') && html`<p class="field-error" id="storeId-error">${messages.storeId}</p>`}
<select class="input" id="storeId" name="storeId"${invalid('storeId') ? html` aria-invalid="true" aria-describedby="storeId-error"` : ''}>
<option value="">${t.chooseStore}</option>
${context.stores.map((store) => html`<option value="${store.id}"${state.storeId === store.id ? html` selected` : ''}>${store.name}</option>`)}
</select>
<button class="button" type="submit">${t.create}</button>
</form>`;
}

export function apiKeysPage(context: ApiKeysPageContext, form?: KeyFormState): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    section: 'apiKeys',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
${doneNotice(context.notice && ('created' in context.notice ? t.created(context.notice.created) : t.revoked))}
${!context.apiAccess && html`<p class="notice">${t.noAccess}</p>`}
<p>${t.intro(context.active, context.maxActive)}</p>
${context.keys.length === 0 ? html`<p>${t.none}</p>` : html`<ul data-testid="api-keys">${context.keys.map((apiKey) => keyItem(context, apiKey))}</ul>`}
${context.canManage && createForm(context, form)}
</div>`,
  });
}

export function createdKeyPage(
  context: DashboardPageContext & { pageUrl: string; apiAccess: boolean },
  created: CreatedKey,
): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    section: 'apiKeys',
    title: t.createdTitle,
    content: html`<div class="content">
<h1>${t.createdTitle}</h1>
<p>${t.createdIntro(created.name)}</p>
${shownOnceNotice(context.language)}
${!context.apiAccess && html`<p class="notice">${t.noAccess}</p>`}
${shownOnceField(context.language, { id: 'key-id', label: t.keyId, value: created.id })}
${shownOnceField(context.language, { id: 'key-secret', label: t.secret, value: created.secret })}
<p><a href="${dashboardUrl(context, '/api-keys')}">${t.back}</a></p>
</div>
${copyButtonScript()}`,
  });
}

export function confirmRevokePage(
  context: DashboardPageContext & { pageUrl: string; csrfToken: string },
  apiKey: Pick<ListedKey, 'id' | 'name'>,
): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    section: 'apiKeys',
    title: t.confirmTitle,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.confirmTitle}</h1>
<p>${t.confirmIntro(apiKey.name)}</p>
<form method="post" action="${dashboardUrl(context, `/api-keys/${apiKey.id}/revoke`)}">
${csrfField(context.csrfToken)}
<button class="button button-decline" type="submit">${t.confirm}</button>
</form>
<p class="note"><a href="${dashboardUrl(context, '/api-keys')}">${t.cancel}</a></p>
</div>`,
  });
}
