import type { Membership } from '#shared/data/membership.ts';
import type { Language } from '#shared/domain/languages.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { postForm, roleNames } from '#shared/pages/dashboard-text.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { html } from '#shared/pages/html.ts';

const text = {
  fr: {
    title: 'Vos entreprises',
    intro: 'Choisissez l’entreprise pour laquelle vous agissez.',
    current: 'Entreprise actuelle',
    choose: (name: string) => `Agir pour ${name}`,
    none: 'Vous n’êtes membre d’aucune entreprise. Demandez une invitation à son propriétaire.',
    signOut: 'Se déconnecter',
  },
  en: {
    title: 'Your businesses',
    intro: 'Choose the business you act for.',
    current: 'Current business',
    choose: (name: string) => `Act for ${name}`,
    none: 'You are not a member of any business. Ask its owner for an invitation.',
    signOut: 'Sign out',
  },
} satisfies Record<Language, unknown>;

/** `/dashboard/businesses`: one form a business (a post with the session's token), the current one marked. */
export function businessesPage(
  context: DashboardPageContext & {
    csrfToken: string;
    memberships: readonly Membership[];
    currentBusinessId: string | undefined;
  },
): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    title: t.title,
    pageUrl: `${context.baseUrl}/dashboard/businesses`,
    content: html`<div class="content">
<h1>${t.title}</h1>
${
  context.memberships.length === 0
    ? html`<p>${t.none}</p>`
    : html`<p>${t.intro}</p>
<ul class="businesses" data-testid="businesses">${context.memberships.map(
        (membership) => html`<li data-business-id="${membership.businessId}">
<p><strong>${membership.businessName}</strong> · ${roleNames[context.language][membership.role]}${
          membership.businessId === context.currentBusinessId
            ? html` · <span class="muted">${t.current}</span>`
            : ''
        }</p>
${postForm(
  dashboardUrl(context, '/businesses'),
  context.csrfToken,
  html`<input type="hidden" name="businessId" value="${membership.businessId}">
<button class="button button-secondary" type="submit">${t.choose(membership.businessName)}</button>`,
)}
</li>`,
      )}</ul>`
}
${postForm(dashboardUrl(context, '/sign-out'), context.csrfToken, html`<button class="button button-decline" type="submit">${t.signOut}</button>`)}
</div>`,
  });
}
