import { payoutAccountResponse, withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import {
  addPayoutAccount,
  apiSourceOf,
  checkedPayoutAccountBody,
  requireWholeBusinessKey,
} from '#shared/operations/payout-accounts.ts';

export const handler = apiHandler(
  withdrawalEndpoints.createPayoutAccount,
  async ({ caller, body, headers }) => {
    requireWholeBusinessKey(caller);
    const account = await addPayoutAccount(
      caller.businessId,
      checkedPayoutAccountBody(body),
      { keyId: caller.keyId },
      apiSourceOf(headers),
    );
    return payoutAccountResponse(account);
  },
);
