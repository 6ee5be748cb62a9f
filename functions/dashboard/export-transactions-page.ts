import { dashboardExportEndpoints } from '#shared/api/dashboard-export.ts';
import { listStores } from '#shared/data/store.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { dashboardPageOptions, withMember } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { streamedPageHandler } from '#shared/http/streamed-page-handler.ts';
import {
  defaultSeparator,
  type ExportError,
  exportFiltersOf,
  exportSeparatorOf,
  exportStream,
  maxExportRows,
  prepareExport,
} from '#shared/operations/transaction-export.ts';
import { exportPage } from '#shared/pages/dashboard-export.ts';

export const handler = streamedPageHandler(
  dashboardExportEndpoints.exportTransactionsPage,
  withMember(dashboardExportEndpoints.exportTransactionsPage, async (request, member) => {
    const { filters, errors: filterErrors } = exportFiltersOf(request.query);
    // The file's separator: `;` in French, `,` in English unless the form chose the other.
    const separator = exportSeparatorOf(request.query.separator, request.language);
    const errors: ExportError[] = [
      ...filterErrors,
      ...(separator === undefined
        ? [{ field: 'separator' as const, problem: 'unknownSeparator' as const }]
        : []),
    ];
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
          separator: separator ?? defaultSeparator(request.language),
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
    const { body, fileName, after } = exportStream(member, prepared, request.sourceIp, {
      language: request.language,
      separator: separator ?? defaultSeparator(request.language),
    });
    return { file: true as const, contentType: 'text/csv; charset=utf-8', fileName, body, after };
  }),
  dashboardPageOptions,
);
