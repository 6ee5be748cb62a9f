import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { currentLinkRequest } from '#shared/operations/link-requests.ts';
import { linkRequestPage } from '#shared/pages/link-request-page.ts';

export const handler = pageHandler('linkRequestPage', async (request) =>
  htmlPage(linkRequestPage(await currentLinkRequest(request.params.id ?? ''), request)),
);
