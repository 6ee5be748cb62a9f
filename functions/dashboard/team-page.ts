import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { teamOf } from '#shared/operations/team.ts';
import { type TeamDone, teamPage } from '#shared/pages/dashboard-team.ts';

/** What the post before said was done (post, redirect, then this page says so). */
function doneOf(query: Record<string, string>): TeamDone | undefined {
  if (query.invited) return { kind: 'invited', invitationId: query.invited };
  const done = query.done;
  return done === 'removed' || done === 'cancelled' || done === 'roleChanged' ? { kind: done } : undefined;
}

export const handler = dashboardPage(dashboardTeamEndpoints.teamPage, async (request, member, session) =>
  htmlPage(
    teamPage(
      { ...request, csrfToken: session.csrfToken, ...(await teamOf(member)) },
      { done: doneOf(request.query) },
    ),
  ),
);
