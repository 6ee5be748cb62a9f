import { sandboxLinkRequestEndpoints } from '#shared/api/sandbox-link-requests.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { settleSandboxLinkRequest } from '#shared/operations/link-requests.ts';

export const handler = apiHandler(
  sandboxLinkRequestEndpoints.approveSandboxLinkRequest,
  ({ caller, params }) => settleSandboxLinkRequest(caller, params.id, 'approve'),
);
