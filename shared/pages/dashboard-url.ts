import type { Language } from '#shared/domain/languages.ts';
import { withLanguage } from '#shared/pages/layout.ts';

/** What a dashboard page needs of its request (a `PageRequest` is one). */
export interface DashboardPageContext {
  language: Language;
  /** The language was chosen on the page: the dashboard's own links and forms keep it. */
  languagePinned: boolean;
  baseUrl: string;
}

/** A dashboard address under the service's base, keeping a language chosen on the page. */
export function dashboardUrl(context: DashboardPageContext, path = ''): string {
  const url = `${context.baseUrl}/dashboard${path}`;
  return context.languagePinned ? withLanguage(url, context.language) : url;
}
