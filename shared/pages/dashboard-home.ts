import type { OwnedBusiness } from '#shared/data/user.ts';
import type { Language } from '#shared/domain/languages.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';

const text = {
  fr: {
    title: 'Tableau de bord',
    businesses: 'Vos entreprises',
    none: 'Vous ne possédez encore aucune entreprise.',
    next: 'Les soldes et les paiements arrivent ici prochainement.',
    signOut: 'Se déconnecter',
  },
  en: {
    title: 'Dashboard',
    businesses: 'Your businesses',
    none: 'You do not own a business yet.',
    next: 'Balances and payments are coming here soon.',
    signOut: 'Sign out',
  },
} satisfies Record<Language, unknown>;

/** `/dashboard`: the signed-in person's businesses, and the sign-out form (a post, with its token). */
export function dashboardHomePage(context: {
  language: Language;
  pageUrl: string;
  signOutUrl: string;
  csrfToken: string;
  businesses: readonly OwnedBusiness[];
  /** The links to the other sections. */
  nav?: SafeHtml | undefined;
}): string {
  const t = text[context.language];
  return layout({
    language: context.language,
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
${context.nav}
<h1>${t.title}</h1>
<h2>${t.businesses}</h2>
${
  context.businesses.length === 0
    ? html`<p>${t.none}</p>`
    : html`<ul data-testid="businesses">${context.businesses.map(
        (business) => html`<li data-business-id="${business.businessId}">${business.businessName}</li>`,
      )}</ul>`
}
<p class="muted">${t.next}</p>
<form method="post" action="${context.signOutUrl}">
<input type="hidden" name="csrf" value="${context.csrfToken}">
<button class="button button-decline" type="submit">${t.signOut}</button>
</form>
</div>`,
  });
}
