import type { MemberRole } from '#shared/domain/dashboard-roles.ts';
import type { Language } from '#shared/domain/languages.ts';
import { withLanguage } from '#shared/pages/layout.ts';

/** What a dashboard page needs of its request (a `PageRequest` is one). */
export interface DashboardPageContext {
  language: Language;
  /** The language was chosen on the page: the dashboard's own links and forms keep it. */
  languagePinned: boolean;
  baseUrl: string;
  /**
   * Where the business is (its first store's country's zone), for times that belong to no store
   * (a key's use, the audit log); Côte d'Ivoire's (UTC+0) when not given.
   */
  timeZone?: string | undefined;
  /** The acting member's role: the navigation shows only what it opens (every section when unknown). */
  role?: MemberRole | undefined;
}

/** A dashboard address under the service's base, keeping a language chosen on the page. */
export function dashboardUrl(context: DashboardPageContext, path = ''): string {
  const url = `${context.baseUrl}/dashboard${path}`;
  return context.languagePinned ? withLanguage(url, context.language) : url;
}

/**
 * A transaction line's page. Its creation instant goes along: no index leads from a line's id to
 * the line, and with the instant the page reads it directly instead of searching 90 days.
 */
export const transactionPath = (line: { id: string; createdAt: string }) =>
  `/transactions/${encodeURIComponent(line.id)}?at=${encodeURIComponent(line.createdAt)}`;
