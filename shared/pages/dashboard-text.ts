import type { MemberRole } from '#shared/domain/dashboard-roles.ts';
import type { Language } from '#shared/domain/languages.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

/** The words every signed-in dashboard page shares: role names, the way back home. */
export const roleNames: Record<Language, Record<MemberRole, string>> = {
  fr: {
    owner: 'Propriétaire',
    admin: 'Administrateur',
    developer: 'Développeur',
    finance: 'Finance',
    viewer: 'Lecture seule',
  },
  en: { owner: 'Owner', admin: 'Admin', developer: 'Developer', finance: 'Finance', viewer: 'Viewer' },
};

const back: Record<Language, string> = { fr: 'Retour au tableau de bord', en: 'Back to the dashboard' };

/** The business the page acts for and the way back home, at the top of a dashboard page. */
export function dashboardHeader(
  language: Language,
  context: { businessName: string; homeUrl: string },
): SafeHtml {
  return html`<p class="eyebrow"><a href="${context.homeUrl}">${back[language]}</a> · <span data-testid="acting-business">${context.businessName}</span></p>`;
}

/** A hidden CSRF field and a submit button: a post form of the session. */
export function postForm(action: string, csrfToken: string, content: SafeHtml): SafeHtml {
  return html`<form method="post" action="${action}">
${csrfField(csrfToken)}
${content}
</form>`;
}
