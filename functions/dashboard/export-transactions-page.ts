import { listStores } from '#shared/data/store.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { streamedPageHandler } from '#shared/http/streamed-page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import {
  exportFiltersOf,
  exportStream,
  maxExportRows,
  prepareExport,
} from '#shared/operations/transaction-export.ts';
import { exportPage } from '#shared/pages/dashboard-export.ts';

export const handler = streamedPageHandler(
  'exportTransactionsPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'export');
    const { filters, errors } = exportFiltersOf(request.query);
    const stores = await listStores(member.businessId);
    // Another business's store is not found, on the form as on the file.
    if (filters.store !== undefined && !stores.some((store) => store.id === filters.store))
      throw new StoreNotFound();
    const page = (status: number, extra: { counted?: number } = {}) =>
      htmlPage(
        exportPage({
          ...request,
          pageUrl: `${request.baseUrl}/dashboard/transactions/export`,
          filters,
          stores,
          errors: extra.counted === undefined ? errors : [{ field: 'to', problem: 'tooManyRows' }],
          maxRows: maxExportRows,
          counted: extra.counted,
        }),
        status,
      );
    if (errors.length > 0) return page(400);
    if (request.query.download !== '1') return page(200);
    const prepared = await prepareExport(member, filters);
    if ('tooManyRows' in prepared) return page(400, { counted: prepared.tooManyRows });
    const { body, fileName, after } = exportStream(member, prepared, request.sourceIp);
    return { file: true as const, contentType: 'text/csv; charset=utf-8', fileName, body, after };
  }),
  dashboardPageOptions,
);
