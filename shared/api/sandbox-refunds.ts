import { endpointsIn } from '#shared/api/endpoint.ts';
import { refundPathParams, refundSchema } from '#shared/api/refunds.ts';
import { playsSandboxProvider } from '#shared/catalogue/access.ts';

/** The sandbox's refunds: the provider's answer to a refund it left pending. Not on production. */
export const sandboxRefundEndpoints = /* @__PURE__ */ endpointsIn('sandbox', {
  completeSandboxRefund: {
    method: 'POST',
    path: '/sandbox/refunds/{id}/complete',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem', ...playsSandboxProvider],
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Complete a refund (sandbox)',
    params: refundPathParams,
    response: refundSchema,
    responseDescription: 'The refund after the callback, in `success`.',
    errors: ['refund_not_found', 'conflict'],
  },
  failSandboxRefund: {
    method: 'POST',
    path: '/sandbox/refunds/{id}/fail',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem', ...playsSandboxProvider],
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Fail a refund (sandbox)',
    params: refundPathParams,
    response: refundSchema,
    responseDescription: 'The refund after the callback, in `error`, its reservation given back.',
    errors: ['refund_not_found', 'conflict'],
  },
});
