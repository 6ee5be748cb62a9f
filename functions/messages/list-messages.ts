import { messageEndpoints, messageResponse } from '#shared/api/messages.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { messagesOf } from '#shared/operations/messages.ts';

export const handler = apiHandler(messageEndpoints.listMessages, async ({ caller, query }) => {
  const page = await messagesOf(caller, query);
  return { ...page, data: page.data.map(messageResponse) };
});
