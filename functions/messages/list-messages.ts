import { apiHandler } from '#shared/http/api-handler.ts';
import { messagesOf } from '#shared/operations/messages.ts';
import { routes } from '#shared/routes.ts';
import { listMessagesQuery, messageResponse } from '#shared/schemas/messages.ts';

export const handler = apiHandler(
  routes.listMessages,
  { query: listMessagesQuery },
  async ({ caller, query }) => {
    const page = await messagesOf(caller, query);
    return { ...page, data: page.data.map(messageResponse) };
  },
);
