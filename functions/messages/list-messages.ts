import { apiHandler } from '#shared/http/api-handler.ts';
import { messagesOf } from '#shared/operations/messages.ts';
import { messageRoutes } from '#shared/routes.ts';
import { listMessagesQuery, messageResponse } from '#shared/schemas/messages.ts';

export const handler = apiHandler(
  messageRoutes.listMessages,
  { query: listMessagesQuery },
  async ({ caller, query }) => {
    const page = await messagesOf(caller, query);
    return { ...page, data: page.data.map(messageResponse) };
  },
);
