import type { Membership } from '#shared/data/membership.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import type { BusinessOverview } from '#shared/operations/dashboard-overview.ts';
import { postForm, roleNames } from '#shared/pages/dashboard-text.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';

const text = {
  fr: {
    title: 'Tableau de bord',
    role: 'Votre rôle',
    level: 'Niveau de vérification',
    apiAccess: 'Accès à l’API',
    enabled: 'Activé',
    disabled: 'Pas encore activé',
    ceiling: 'Plafond d’encaissement du mois',
    unlimited: 'Aucun plafond',
    collected: 'Encaissé ce mois-ci',
    verify: 'Vérifier votre identité',
    verifyWhy: 'Vérifiez votre identité pour activer l’API et relever votre plafond d’encaissement.',
    team: 'Équipe',
    businesses: 'Changer d’entreprise',
    signOut: 'Se déconnecter',
    signOutEverywhere: 'Se déconnecter partout',
    signOutEverywhereHint: 'Ferme toutes vos sessions, sur tous vos appareils.',
  },
  en: {
    title: 'Dashboard',
    role: 'Your role',
    level: 'Verification level',
    apiAccess: 'API access',
    enabled: 'Enabled',
    disabled: 'Not enabled yet',
    ceiling: 'Collection ceiling this month',
    unlimited: 'No ceiling',
    collected: 'Collected this month',
    verify: 'Verify your identity',
    verifyWhy: 'Verify your identity to enable the API and raise your collection ceiling.',
    team: 'Team',
    businesses: 'Switch business',
    signOut: 'Sign out',
    signOutEverywhere: 'Sign out everywhere',
    signOutEverywhereHint: 'Ends all your sessions, on every device.',
  },
} satisfies Record<Language, unknown>;

/**
 * `/dashboard`: the business the session acts for, its verification level, API access and the
 * month's collection ceiling with what is used of it; the ways to the team, the other businesses,
 * the identity check (for whom may do it) and out.
 */
export function dashboardHomePage(
  context: DashboardPageContext & {
    csrfToken: string;
    member: ActingMember;
    overview: BusinessOverview;
    memberships: readonly Membership[];
    /** The links to the other sections. */
    nav?: SafeHtml | undefined;
  },
): string {
  const t = text[context.language];
  const { member, overview } = context;
  const canVerify =
    overview.identityCheckOffered && overview.verificationLevel === 0 && roleAllows(member.role, 'verify');
  return layout({
    language: context.language,
    title: `${t.title} · ${member.businessName}`,
    pageUrl: `${context.baseUrl}/dashboard`,
    content: html`<div class="content">
${context.nav}
<p class="eyebrow">${t.title}</p>
<h1 data-testid="business-name" data-business-id="${member.businessId}">${member.businessName}</h1>
<dl class="facts" data-testid="overview">
<dt>${t.role}</dt><dd data-testid="role">${roleNames[context.language][member.role]}</dd>
<dt>${t.level}</dt><dd data-testid="verification-level">${String(overview.verificationLevel)}</dd>
<dt>${t.apiAccess}</dt><dd data-testid="api-access">${overview.apiAccessEnabled ? t.enabled : t.disabled}</dd>
<dt>${t.ceiling}</dt><dd data-testid="ceiling">${overview.ceiling === null ? t.unlimited : formatAmount(overview.ceiling)}</dd>
<dt>${t.collected}</dt><dd data-testid="collected">${formatAmount(overview.collected)}</dd>
</dl>
${canVerify && html`<p>${t.verifyWhy}</p>${postForm(dashboardUrl(context, '/verification'), context.csrfToken, html`<button class="button" type="submit">${t.verify}</button>`)}`}
<a class="button button-secondary" href="${dashboardUrl(context, '/team')}">${t.team}</a>
${context.memberships.length > 1 && html`<a class="button button-secondary" href="${dashboardUrl(context, '/businesses')}">${t.businesses}</a>`}
${postForm(dashboardUrl(context, '/sign-out'), context.csrfToken, html`<button class="button button-decline" type="submit">${t.signOut}</button>`)}
${postForm(dashboardUrl(context, '/sign-out-everywhere'), context.csrfToken, html`<button class="button button-decline" type="submit" aria-describedby="sign-out-everywhere-hint">${t.signOutEverywhere}</button><p class="hint" id="sign-out-everywhere-hint">${t.signOutEverywhereHint}</p>`)}
</div>`,
  });
}
