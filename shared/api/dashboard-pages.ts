import { dashboardEndpoints } from '#shared/api/dashboard.ts';
import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardEscrowEndpoints } from '#shared/api/dashboard-escrows.ts';
import { dashboardExportEndpoints } from '#shared/api/dashboard-export.ts';
import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { dashboardPaymentRequestEndpoints } from '#shared/api/dashboard-payment-requests.ts';
import { dashboardSmsEndpoints } from '#shared/api/dashboard-sms.ts';
import { dashboardSoundboxEndpoints } from '#shared/api/dashboard-soundboxes.ts';
import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { dashboardTransactionEndpoints } from '#shared/api/dashboard-transactions.ts';
import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { dashboardVerificationEndpoints } from '#shared/api/dashboard-verification.ts';
import type { PageEndpoint } from '#shared/api/endpoint.ts';
import { statementEndpoints } from '#shared/api/statements.ts';
import { type MemberRole, roleAllows } from '#shared/domain/dashboard-roles.ts';

/**
 * The dashboard's pages the navigation may link to, from the modules that declare nothing but
 * pages (withdrawals and SMS credit share theirs with the API, whose schemas a page has no use for).
 * Made in a call marked pure, as `endpoints` is, so a bundle that asks nothing of it drops it.
 */
const navigablePages = /* @__PURE__ */ (() => ({
  ...dashboardEndpoints,
  ...dashboardTeamEndpoints,
  ...dashboardVerificationEndpoints,
  ...dashboardDeveloperEndpoints,
  ...dashboardPaymentLinkEndpoints,
  ...dashboardTransferEndpoints,
  ...dashboardExportEndpoints,
  ...dashboardPaymentRequestEndpoints,
  ...dashboardSmsEndpoints,
  ...dashboardTransactionEndpoints,
  ...dashboardEscrowEndpoints,
  ...dashboardSoundboxEndpoints,
  ...statementEndpoints,
}))() satisfies Record<string, PageEndpoint>;

export type NavigablePageName = keyof typeof navigablePages;

/**
 * Whether a member of this role may open the page: its declared permission, which the server asks
 * before the page runs. A page of the person rather than the business (signing in, choosing a
 * business) declares none and is open to any signed-in person.
 */
export function mayOpen(role: MemberRole, page: NavigablePageName): boolean {
  const { permission } = navigablePages[page] as PageEndpoint;
  return permission === undefined || roleAllows(role, permission);
}
