import { endpointsIn } from '#shared/api/endpoint.ts';
import { transferPathParams, transferSchema } from '#shared/api/transfers.ts';
import { playsSandboxProvider } from '#shared/catalogue/access.ts';

/** The sandbox's payouts: the provider's answer to a payout it left pending. Not on production. */
export const sandboxTransferEndpoints = /* @__PURE__ */ endpointsIn('sandbox', {
  completeSandboxTransfer: {
    method: 'POST',
    path: '/sandbox/transfers/{id}/complete',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem', ...playsSandboxProvider],
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Complete a payout (sandbox)',
    params: transferPathParams,
    response: transferSchema,
    responseDescription: 'The transfer after the callback, in `success`.',
    errors: ['transfer_not_found', 'conflict'],
  },
  failSandboxTransfer: {
    method: 'POST',
    path: '/sandbox/transfers/{id}/fail',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem', ...playsSandboxProvider],
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Fail a payout (sandbox)',
    params: transferPathParams,
    response: transferSchema,
    responseDescription: 'The transfer after the callback, in `error`, its reservation given back.',
    errors: ['transfer_not_found', 'conflict'],
  },
});
