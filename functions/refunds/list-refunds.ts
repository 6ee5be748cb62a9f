import { refundEndpoints, refundResponse } from '#shared/api/refunds.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { refundsOf } from '#shared/operations/refunds.ts';

export const handler = apiHandler(refundEndpoints.listRefunds, async ({ caller, query }) => {
  const { total, items } = await refundsOf(caller, query);
  return { total, perPage: query.limit, currentPage: query.page, data: items.map(refundResponse) };
});
