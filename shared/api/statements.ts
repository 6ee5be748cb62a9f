import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';

/**
 * Monthly statements (issue 34, item 5): one store's or the whole business's month, its opening
 * and closing balances and the movements between them by kind and day, as a page that prints on
 * A4 and, with `format=csv`, as a file for a spreadsheet. One route for both (the stage's stack
 * counts its resources). A GET: no CSRF token, a session and the role's `read`. In its own
 * folder, so its own nested stack (the dashboard's is full).
 */
export const statementEndpoints = /* @__PURE__ */ endpointsIn('statements', {
  statementPage: {
    method: 'GET',
    path: '/dashboard/statements',
    caller: 'public',
    permission: 'read',
    // The session's idle time moves on (UpdateItem); the member, business, stores, wallets and
    // day counters (GetItem, Query).
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag: 'Dashboard',
    summary: 'A month’s statement of a store or of the business: page (prints on A4) or CSV',
    query: object({
      lang: optional(enumOf(['fr', 'en'])),
      month: optional(string()).register(globalRegistry, {
        description: '`YYYY-MM`, one of the last 24 months (UTC days); this month by default.',
      }),
      store: optional(string()).register(globalRegistry, {
        description: 'One store; the whole business by default.',
      }),
      format: optional(enumOf(['csv'])).register(globalRegistry, {
        description: 'The statement as CSV (UTF-8 with BOM, `;` between fields); without it, the page.',
      }),
    }),
    answers: {
      200: 'The statement; with `format=csv`, the file.',
      303: 'No session: to the sign-in page.',
      400: 'A month that is not one of the last 24: the page with its error.',
      404: 'The store is not one of the business’s.',
    },
  },
});
