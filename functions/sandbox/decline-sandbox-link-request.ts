import { sandboxEndpoints } from '#shared/api/sandbox.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { settleSandboxLinkRequest } from '#shared/operations/link-requests.ts';

export const handler = apiHandler(sandboxEndpoints.declineSandboxLinkRequest, ({ caller, params }) =>
  settleSandboxLinkRequest(caller, params.id, 'decline'),
);
