import { apiHandler } from '#shared/http/api-handler.ts';
import { messageOf } from '#shared/operations/messages.ts';
import { routes } from '#shared/routes.ts';
import { messagePathParams, messageResponse } from '#shared/schemas/messages.ts';

export const handler = apiHandler(
  routes.getMessage,
  { params: messagePathParams },
  async ({ caller, params }) => messageResponse(await messageOf(caller, params.id)),
);
