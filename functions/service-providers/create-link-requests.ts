import { apiHandler } from '#shared/http/api-handler.ts';
import { createLinkRequests } from '#shared/operations/link-requests.ts';
import { linkRequestRoutes } from '#shared/routes.ts';
import { createLinkRequestsBody } from '#shared/schemas/service-providers.ts';

export const handler = apiHandler(
  linkRequestRoutes.createLinkRequests,
  { body: createLinkRequestsBody },
  ({ caller, body, baseUrl }) => createLinkRequests(caller, body.phone, baseUrl),
);
