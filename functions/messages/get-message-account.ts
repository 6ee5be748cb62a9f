import { messageAccountResponse, messageEndpoints } from '#shared/api/messages.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { messageAccountOf } from '#shared/operations/messages.ts';

export const handler = apiHandler(messageEndpoints.getMessageAccount, async ({ caller }) =>
  messageAccountResponse(await messageAccountOf(caller)),
);
