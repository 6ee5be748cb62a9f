import { apiHandler } from '#shared/http/api-handler.ts';
import { messageAccountOf } from '#shared/operations/messages.ts';
import { messageRoutes } from '#shared/routes.ts';
import { messageAccountResponse } from '#shared/schemas/messages.ts';

export const handler = apiHandler(messageRoutes.getMessageAccount, {}, async ({ caller }) =>
  messageAccountResponse(await messageAccountOf(caller)),
);
