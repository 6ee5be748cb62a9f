import { payoutAccountResponse, withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { payoutAccountsOf } from '#shared/operations/payout-accounts.ts';

export const handler = apiHandler(withdrawalEndpoints.listPayoutAccounts, async ({ caller }) =>
  (await payoutAccountsOf(caller.businessId)).map(payoutAccountResponse),
);
