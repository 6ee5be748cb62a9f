import { withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { removePayoutAccount, requireWholeBusinessKey } from '#shared/operations/payout-accounts.ts';

export const handler = apiHandler(withdrawalEndpoints.deletePayoutAccount, async ({ caller, params }) => {
  requireWholeBusinessKey(caller);
  const account = await removePayoutAccount(caller.businessId, params.id);
  return { id: account.id, deleted: true as const };
});
