import { apiHandler } from '#shared/http/api-handler.ts';
import { messageOf } from '#shared/operations/messages.ts';
import { messageRoutes } from '#shared/routes.ts';
import { messagePathParams, messageResponse } from '#shared/schemas/messages.ts';

export const handler = apiHandler(
  messageRoutes.getMessage,
  { params: messagePathParams },
  async ({ caller, params }) => messageResponse(await messageOf(caller, params.id)),
);
