import { EscrowError, EscrowNotFound } from '#shared/errors/escrows.ts';
import type { PageResult } from '#shared/http/page-handler.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { escrowToConfirm } from '#shared/operations/dashboard-escrows.ts';
import { escrowMovedPage } from '#shared/pages/dashboard-escrows.ts';
import type { DashboardPageContext } from '#shared/pages/dashboard-url.ts';

/**
 * What the escrow pages do with an escrow that is no longer held: a release or a refund refused
 * by the API's transition (409) becomes a page that says what happened to it, read afresh, rather
 * than the generic error page. Not found stays the 404 it is.
 */
export async function unlessMoved(
  member: ActingMember,
  context: DashboardPageContext,
  escrowId: string,
  act: () => Promise<PageResult>,
): Promise<PageResult> {
  try {
    return await act();
  } catch (error) {
    if (!(error instanceof EscrowError) || error instanceof EscrowNotFound) throw error;
    const { escrow } = await escrowToConfirm(member, escrowId);
    return htmlPage(escrowMovedPage(context, escrow.status), 409);
  }
}
