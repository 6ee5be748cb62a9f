import { dashboardPaymentRequestEndpoints } from '#shared/api/dashboard-payment-requests.ts';
import { InsufficientSmsBalance } from '#shared/errors/messages.ts';
import { CollectionCeilingExceeded } from '#shared/errors/payment-requests.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import {
  type AskForm,
  askForPayment,
  askPageData,
  checkAskForm,
  previewAsk,
  storesOf,
} from '#shared/operations/dashboard-payment-requests.ts';
import {
  type AskFormState,
  askPage,
  askSmsText,
  checkAskPage,
} from '#shared/pages/dashboard-payment-requests.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardPaymentRequestEndpoints.askForPaymentPage,
  async (request, member, session) => {
    const form: AskForm = {
      storeId: request.fields.storeId,
      amount: request.fields.amount,
      payerPhone: request.fields.payerPhone,
      note: request.fields.note,
      phoneCountry: request.fields.phoneCountry,
    };
    const stores = await storesOf(member);
    const again = async (state: AskFormState, status: number) =>
      htmlPage(
        askPage(
          { ...request, ...(await askPageData(member)), csrfToken: session.csrfToken, canAsk: true },
          state,
        ),
        status,
      );
    const checked = checkAskForm(form, stores);
    const smsText = askSmsText(request.language);
    if ('errors' in checked) return again({ form, errors: checked.errors }, 400);
    if (request.fields.confirm === 'change') return again({ form, errors: [] }, 200);
    const context = { ...request, csrfToken: session.csrfToken };
    if (request.fields.confirm !== 'yes') {
      const preview = await previewAsk(member, checked.ask, smsText, request.baseUrl);
      const short = preview.smsBalance < preview.segments;
      return htmlPage(checkAskPage(context, checked.ask, form, preview), short ? 422 : 200);
    }
    try {
      const { request: asked } = await askForPayment(member, checked.ask, smsText, request);
      return redirectTo(dashboardUrl(request, `/payment-requests/${asked.id}`));
    } catch (error) {
      if (error instanceof CollectionCeilingExceeded) return again({ form, errors: [], ceiling: true }, 422);
      if (!(error instanceof InsufficientSmsBalance)) throw error;
      // Refused on the balance: the check step again, saying so, with nothing made or charged.
      const preview = await previewAsk(member, checked.ask, smsText, request.baseUrl);
      return htmlPage(checkAskPage(context, checked.ask, form, preview, true), 422);
    }
  },
  { maxFormFieldChars: 1024 },
);
