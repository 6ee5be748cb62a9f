import { messageEndpoints, messageResponse } from '#shared/api/messages.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { messageOf } from '#shared/operations/messages.ts';

export const handler = apiHandler(messageEndpoints.getMessage, async ({ caller, params }) =>
  messageResponse(await messageOf(caller, params.id)),
);
