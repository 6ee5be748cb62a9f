import { apiHandler } from '#shared/http/api-handler.ts';
import { messageAccountOf } from '#shared/operations/messages.ts';
import { routes } from '#shared/routes.ts';
import { messageAccountResponse } from '#shared/schemas/messages.ts';

export const handler = apiHandler(routes.getMessageAccount, {}, async ({ caller }) =>
  messageAccountResponse(await messageAccountOf(caller)),
);
