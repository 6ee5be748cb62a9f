import { apiHandler } from '#shared/http/api-handler.ts';
import { linkRequestOf } from '#shared/operations/link-requests.ts';
import { linkRequestRoutes } from '#shared/routes.ts';
import { linkRequestPathParams } from '#shared/schemas/service-providers.ts';

export const handler = apiHandler(
  linkRequestRoutes.getLinkRequest,
  { params: linkRequestPathParams },
  ({ caller, params }) => linkRequestOf(caller, params.id),
);
