import { withdrawalEndpoints } from '#shared/api/withdrawals.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import {
  apiSourceOf,
  removePayoutAccount,
  requireWholeBusinessKey,
} from '#shared/operations/payout-accounts.ts';

export const handler = apiHandler(
  withdrawalEndpoints.deletePayoutAccount,
  async ({ caller, params, headers }) => {
    requireWholeBusinessKey(caller);
    const account = await removePayoutAccount(
      caller.businessId,
      params.id,
      { keyId: caller.keyId },
      apiSourceOf(headers),
    );
    return { id: account.id, deleted: true as const };
  },
);
