import { dashboardSoundboxEndpoints } from '#shared/api/dashboard-soundboxes.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { soundboxesOverview } from '#shared/operations/dashboard-soundboxes.ts';
import { soundboxesPage } from '#shared/pages/dashboard-soundboxes.ts';

export const handler = dashboardPage(
  dashboardSoundboxEndpoints.soundboxesPage,
  async (request, member, session) => {
    const { soundboxes } = await soundboxesOverview(member);
    // The test QR's post comes back here naming the device; only one of the business's is shown.
    const sentTo = soundboxes.find((listed) => listed.device.id === request.query.sent);
    return htmlPage(
      soundboxesPage({
        ...request,
        soundboxes,
        pageUrl: `${request.baseUrl}/dashboard/soundboxes`,
        csrfToken: session.csrfToken,
        canTest: roleAllows(member.role, 'requestPayment'),
        sent: sentTo && { deviceId: sentTo.device.id, online: request.query.online === '1' },
      }),
    );
  },
);
