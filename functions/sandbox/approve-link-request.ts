import { apiHandler } from '#shared/http/api-handler.ts';
import { settleSandboxLinkRequest } from '#shared/operations/link-requests.ts';
import { linkRequestRoutes } from '#shared/routes.ts';
import { linkRequestPathParams } from '#shared/schemas/service-providers.ts';

export const handler = apiHandler(
  linkRequestRoutes.approveSandboxLinkRequest,
  { params: linkRequestPathParams },
  ({ caller, params }) => settleSandboxLinkRequest(caller, params.id, 'approve'),
);
