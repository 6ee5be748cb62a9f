import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { linkPageView } from '#shared/operations/link-page.ts';
import { receiptTimeZone } from '#shared/operations/receipt-time-zone.ts';
import { linkPage } from '#shared/pages/link-page.ts';
import { operatorsDownNow } from '#shared/providers/routing.ts';

export const handler = pageHandler('linkPage', async (request) => {
  const view = await linkPageView(request.params.id ?? '', request.query.payment);
  const attempt = Math.max(0, Number.parseInt(request.query.attempt ?? '', 10) || 0);
  const timeZone = view.payment && (await receiptTimeZone(view.payment));
  return htmlPage(
    linkPage(
      view,
      { ...request, timeZone, operatorsDown: await operatorsDownNow() },
      { attempt, form: { payerCountry: request.query.country } },
    ),
  );
});
