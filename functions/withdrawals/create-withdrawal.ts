import { transferResponse } from '#shared/api/transfers.ts';
import { withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { withdraw } from '#shared/operations/payout-accounts.ts';

export const handler = apiHandler(
  withdrawalEndpoints.createWithdrawal,
  ({ caller, body, baseUrl, headers, context }) =>
    idempotent(
      {
        operation: 'createWithdrawal',
        businessId: caller.businessId,
        key: headers['idempotency-key'],
        payload: body,
        context,
      },
      async () => {
        const transfer = await withdraw(caller, body, baseUrl);
        return { ...transferResponse(transfer), payoutAccountId: body.payoutAccountId };
      },
    ),
);
