import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { answerLinkRequest } from '#shared/operations/link-requests.ts';
import { linkRequestPage } from '#shared/pages/link-request-page.ts';

export const handler = pageHandler('submitLinkRequestPage', async (request) => {
  const decision = request.form.decision === 'approve' ? 'approve' : 'decline';
  const answer = await answerLinkRequest(request.params.id ?? '', request.form.code ?? '', decision);
  if (answer.outcome === 'wrong_code') {
    return htmlPage(linkRequestPage(answer.request, request, { attemptsLeft: answer.attemptsLeft }), 400);
  }
  return htmlPage(linkRequestPage(answer.request, request));
});
