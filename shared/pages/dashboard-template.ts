import { type DashboardAction, roleAllows } from '#shared/domain/dashboard-roles.ts';
import { type Language, languages } from '#shared/domain/languages.ts';
import { errorSummary, type FieldError } from '#shared/pages/components.ts';
import { csrfField, type DashboardSection } from '#shared/pages/dashboard-chrome.ts';
import { dashboardStylesheet } from '#shared/pages/dashboard-style.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { html, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';
import { isSandboxStage, stylesheet, waitingScriptElement, withLanguage } from '#shared/pages/layout.ts';
import { messages } from '#shared/pages/messages.ts';

/**
 * The one template of the dashboard's pages, after GOV.UK Frontend's `template.njk`: the skip link
 * first, a header, the page in `<main id="main-content">`, the navigation, the footer with the other
 * language. A page gives its section, its title and its content; the template adds the rest, and
 * shows in the navigation only the sections the member's role may open.
 *
 * Phone first: the header's "Menu" link leads to the navigation at the bottom of the page (no
 * script needed), so a page opens with its own content rather than fourteen links; from 1024 px the
 * navigation is a side bar.
 */
const text = {
  fr: {
    skip: 'Aller au contenu',
    brand: 'Tableau de bord',
    menu: 'Menu',
    navigation: 'Sections du tableau de bord',
    errorSummary: 'Il y a un problème',
    home: 'Accueil',
    transactions: 'Transactions',
    statements: 'Relevés',
    paymentLinks: 'Liens de paiement',
    paymentRequests: 'Demander un paiement',
    transfers: 'Envoyer de l’argent',
    withdrawals: 'Retirer',
    escrows: 'Séquestres',
    soundboxes: 'Soundbox',
    sms: 'SMS',
    team: 'Équipe',
    apiKeys: 'Clés d’API',
    webhooks: 'Webhooks',
    audit: 'Journal d’activité',
    back: 'Retour à l’accueil du tableau de bord',
    errors: {
      400: [
        'Cette demande n’a pas pu être traitée',
        'Le formulaire envoyé est incomplet ou n’est plus valable. Revenez à la page précédente et réessayez.',
      ],
      403: [
        'Vous n’avez pas accès à cette action',
        'Votre rôle dans l’entreprise ne permet pas cette action, ou le formulaire a expiré. Si vous en avez besoin, demandez-la à un propriétaire ou à un administrateur.',
      ],
      404: [
        'Page introuvable',
        'Cette page n’existe pas (ou plus) dans votre tableau de bord. Vérifiez l’adresse, ou repartez du menu.',
      ],
      500: [
        'Un problème est survenu de notre côté',
        'Rien n’a été perdu. Réessayez dans quelques minutes ; si cela continue, contactez le support.',
      ],
    },
    incident: (id: string) => `Référence de l’incident : ${id}`,
  },
  en: {
    skip: 'Skip to main content',
    brand: 'Dashboard',
    menu: 'Menu',
    navigation: 'Dashboard sections',
    errorSummary: 'There is a problem',
    home: 'Home',
    transactions: 'Transactions',
    statements: 'Statements',
    paymentLinks: 'Payment links',
    paymentRequests: 'Ask for a payment',
    transfers: 'Send money',
    withdrawals: 'Withdraw',
    escrows: 'Escrows',
    soundboxes: 'Soundboxes',
    sms: 'SMS',
    team: 'Team',
    apiKeys: 'API keys',
    webhooks: 'Webhooks',
    audit: 'Activity log',
    back: 'Back to the dashboard’s home',
    errors: {
      400: [
        'This request could not be handled',
        'The form sent is incomplete or no longer valid. Go back to the previous page and try again.',
      ],
      403: [
        'You cannot do this',
        'Your role in the business does not allow this, or the form has expired. If you need it, ask an owner or an admin.',
      ],
      404: [
        'Page not found',
        'This page does not exist in your dashboard, or no longer does. Check the address, or start again from the menu.',
      ],
      500: [
        'Something went wrong on our side',
        'Nothing was lost. Try again in a few minutes; if it goes on, contact support.',
      ],
    },
    incident: (id: string) => `Incident reference: ${id}`,
  },
} satisfies Record<Language, unknown>;

/**
 * The sections, the money first (what a shop owner comes for), then the business's people and its
 * developers' tools; each with the action its page asks of the member's role, so a link never leads
 * to a refusal.
 */
const sections: readonly { section: DashboardSection; path: string; action: DashboardAction }[] = [
  { section: 'home', path: '', action: 'read' },
  { section: 'transactions', path: '/transactions', action: 'read' },
  { section: 'statements', path: '/statements', action: 'read' },
  { section: 'paymentLinks', path: '/payment-links', action: 'read' },
  { section: 'paymentRequests', path: '/payment-requests', action: 'read' },
  { section: 'transfers', path: '/transfers', action: 'read' },
  { section: 'withdrawals', path: '/withdrawals', action: 'read' },
  { section: 'escrows', path: '/escrows', action: 'read' },
  { section: 'soundboxes', path: '/soundboxes', action: 'read' },
  { section: 'sms', path: '/sms', action: 'read' },
  { section: 'team', path: '/team', action: 'read' },
  { section: 'apiKeys', path: '/api-keys', action: 'read' },
  { section: 'webhooks', path: '/webhooks', action: 'read' },
  { section: 'audit', path: '/audit', action: 'readAudit' },
];

/** The sections the member's role opens (all of them when the role is not known: no business chosen). */
export const sectionsFor = (context: Pick<DashboardPageContext, 'role'>) =>
  sections.filter(({ action }) => context.role === undefined || roleAllows(context.role, action));

function navigation(context: DashboardPageContext, current: DashboardSection | undefined): SafeHtml {
  const t = text[context.language];
  return html`<nav id="dashboard-nav" class="dashboard-nav" aria-labelledby="dashboard-nav-title">
<h2 id="dashboard-nav-title">${t.navigation}</h2>
<ul>${sectionsFor(context).map(
    ({ section, path }) =>
      html`<li><a href="${dashboardUrl(context, path)}"${section === current ? trustedHtml(' aria-current="page"') : ''}>${t[section]}</a></li>`,
  )}</ul>
</nav>`;
}

export interface DashboardTemplateOptions {
  /** The section the page belongs to, marked in the navigation. */
  section?: DashboardSection | undefined;
  /** The document's title; the page writes its own `<h1>`. */
  title: string;
  content: SafeHtml;
  /** The page's own address, to offer it in the other language. */
  pageUrl?: string | undefined;
  /** Field errors, summarised at the top of the page, each a link to its field. */
  errors?: readonly FieldError[] | undefined;
  /**
   * A page laid out for paper too (a statement): its own stylesheet after the dashboard's, allowed
   * by its hash in that page's policy (`dashboardPolicyWithStyle`).
   */
  pageStyle?: string | undefined;
  /** The page waits on a payer (`data-poll` on its status): the waiting script looks for the outcome. */
  waiting?: boolean | undefined;
}

/** A dashboard page: the template around `content`. */
export function dashboardTemplate(context: DashboardPageContext, options: DashboardTemplateOptions): string {
  const t = text[context.language];
  const m = messages[context.language];
  const other = languages.find((candidate) => candidate !== context.language) ?? 'fr';
  const summary = options.errors && errorSummary(t.errorSummary, options.errors);
  return html`<!doctype html>
<html lang="${context.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light">
<title>${options.title}</title>
<style>${trustedHtml(stylesheet)}</style>
<style>${trustedHtml(dashboardStylesheet)}</style>
${options.pageStyle && html`<style>${trustedHtml(options.pageStyle)}</style>`}
</head>
<body>
<a class="skip-link" href="#main-content">${t.skip}</a>
<div class="dashboard">
${isSandboxStage() && html`<div class="sandbox-banner" role="note">${m.sandboxBanner}</div>`}
<header class="dashboard-header">
<a href="${dashboardUrl(context)}">${t.brand}</a>
<a class="menu-link" href="#dashboard-nav">${t.menu}</a>
</header>
<div class="dashboard-body">
<main id="main-content" class="dashboard-main">
${summary ? html`<div class="content">${summary}</div>` : ''}${options.content}
</main>
${navigation(context, options.section)}
</div>
<footer class="footer">
<span>${m.footer}</span>
${
  options.pageUrl &&
  html`<a href="${withLanguage(options.pageUrl, other)}" hreflang="${other}" lang="${other}" aria-label="${messages[other].switchTo}">${messages[other].languageName}</a>`
}
</footer>
</div>
${options.waiting && waitingScriptElement()}
</body>
</html>
`.value;
}

/** A post form of the session: its CSRF field, then the content (fields and a button). */
export function sessionForm(action: string, csrfToken: string, content: SafeHtml, attributes?: SafeHtml) {
  return html`<form method="post" action="${action}"${attributes}>
${csrfField(csrfToken)}
${content}
</form>`;
}

/**
 * An error on a dashboard path, in the dashboard's words and inside its template: what happened,
 * the way back home, the navigation; for a fault of ours the request id support can look up.
 */
export function dashboardErrorPage(
  context: DashboardPageContext,
  statusCode: number,
  requestId: string,
): string {
  const t = text[context.language];
  const kind = statusCode === 403 || statusCode === 404 || statusCode >= 500 ? statusCode : 400;
  const [title = '', explanation = ''] = t.errors[kind >= 500 ? 500 : (kind as 400 | 403 | 404)];
  return dashboardTemplate(context, {
    title,
    content: html`<div class="content" data-testid="dashboard-error" data-status="${String(statusCode)}">
<h1>${title}</h1>
<p>${explanation}</p>
${statusCode >= 500 && requestId && html`<p class="muted">${t.incident(requestId)}</p>`}
<p><a href="${dashboardUrl(context)}">${t.back}</a></p>
</div>`,
  });
}
