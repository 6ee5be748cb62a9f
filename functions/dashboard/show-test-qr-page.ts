import { dashboardSoundboxEndpoints } from '#shared/api/dashboard-soundboxes.ts';
import { CollectionCeilingExceeded } from '#shared/errors/payment-requests.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { showTestQr } from '#shared/operations/dashboard-soundboxes.ts';
import { testQrRefusedPage } from '#shared/pages/dashboard-soundboxes.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(dashboardSoundboxEndpoints.showTestQrPage, async (request, member) => {
  // A test QR is a payment request: the roles that ask for payments may show one.
  member;
  try {
    const sent = await showTestQr(member, request.params.deviceId ?? '', request.baseUrl, request.sourceIp);
    const query = `sent=${encodeURIComponent(sent.deviceId)}&online=${sent.deviceOnline ? '1' : '0'}`;
    const url = dashboardUrl(request, '/soundboxes');
    return redirectTo(`${url}${url.includes('?') ? '&' : '?'}${query}`);
  } catch (error) {
    if (error instanceof CollectionCeilingExceeded) return htmlPage(testQrRefusedPage(request), 422);
    throw error;
  }
});
