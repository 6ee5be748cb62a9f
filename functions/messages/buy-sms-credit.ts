import { smsCreditEndpoints } from '#shared/api/sms-credit.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { apiSourceOf } from '#shared/operations/payout-accounts.ts';
import { buySmsCredit, smsPurchaseResponse } from '#shared/operations/sms-credit.ts';

export const handler = apiHandler(smsCreditEndpoints.buySmsCredit, ({ caller, body, headers, context }) =>
  idempotent(
    {
      operation: 'buySmsCredit',
      businessId: caller.businessId,
      key: headers['idempotency-key'],
      payload: body,
      context,
    },
    async () =>
      smsPurchaseResponse(await buySmsCredit(caller, body, { actor: {}, sourceIp: apiSourceOf(headers) })),
  ),
);
