import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';

/**
 * The dashboard's CSV export of the transactions (issue 26, item 2): the form that picks the
 * window, and the file itself, streamed row by row as it is read (`streams`), so 100,000 rows
 * never sit in the function's memory. The same address answers both: without `download` the
 * form, with `download=1` the file. A GET, so no CSRF token; a session is needed all the same, and
 * the role's `export` action (owner, admin, finance).
 */
const day = string().register(globalRegistry, {
  description: '`YYYY-MM-DD`, a day as the API’s startDate/endDate.',
});

export const dashboardExportEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  exportTransactionsPage: {
    method: 'GET',
    path: '/dashboard/transactions/export',
    caller: 'public',
    permission: 'export',
    // The session's idle time moves on (UpdateItem); the export's audit entry (PutItem); the
    // records, day counters, stores and member (Query, GetItem).
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    streams: { contentType: 'text/csv', timeoutMinutes: 5 },
    tag: 'Dashboard',
    summary: 'Export the transactions of a window of at most 90 days as CSV (streamed)',
    query: object({
      lang: optional(enumOf(['fr', 'en'])),
      download: optional(enumOf(['1'])).register(globalRegistry, {
        description: 'The file itself; without it, the form that chooses the window.',
      }),
      separator: optional(enumOf(['semicolon', 'comma'])).register(globalRegistry, {
        description:
          'Between the file’s fields: `semicolon` (`;`, decimal comma: French spreadsheets) or `comma` (`,`); by default `;` in French and `,` in English.',
      }),
      from: optional(day),
      to: optional(day),
      store: optional(string()).register(globalRegistry, { description: 'One store; all by default.' }),
      type: optional(enumOf(['payment', 'transfer', 'escrow', 'refund'])),
      status: optional(enumOf(['pending', 'success', 'error'])),
      operator: optional(string()).register(globalRegistry, {
        description: 'A payment method, as the API lists it.',
      }),
      q: optional(string()).register(globalRegistry, {
        description: 'A reference, a payer’s number or an id.',
      }),
    }),
    answers: {
      200: 'The form; with `download=1`, the CSV file for a spreadsheet (UTF-8 with BOM, RFC 4180 quoting, headers in the page’s language, money out below zero), newest first.',
      303: 'No session: to the sign-in page.',
      400: 'The form again with its error: a window over 90 days, a day that does not exist, a filter or separator out of its list, or over 100,000 rows.',
      403: 'A role that may not export (viewer, developer).',
      404: 'The store is not one of the business’s.',
    },
  },
});
