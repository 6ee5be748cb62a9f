import { dashboardSmsEndpoints } from '#shared/api/dashboard-sms.ts';
import { InsufficientSmsBalance } from '#shared/errors/messages.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import {
  checkSmsForm,
  type SmsForm,
  sendSmsFor,
  smsBalanceOf,
  smsCountryOf,
  smsPageData,
} from '#shared/operations/dashboard-sms.ts';
import { checkSmsPage, type SmsFormState, smsPage } from '#shared/pages/dashboard-sms.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { phoneCountryOf } from '#shared/pages/phone-country.ts';

export const handler = dashboardPage(
  dashboardSmsEndpoints.sendSmsPage,
  async (request, member, session) => {
    const { to, body, phoneCountry, confirm } = request.fields;
    const form: SmsForm = { to, body, phoneCountry };
    const again = async (state: SmsFormState, status: number) =>
      htmlPage(
        smsPage(
          { ...request, ...(await smsPageData(member, 1)), csrfToken: session.csrfToken, canSend: true },
          state,
        ),
        status,
      );
    const country = phoneCountryOf(form.phoneCountry, { businessCountry: await smsCountryOf(member) });
    const checked = checkSmsForm(form, country);
    if ('errors' in checked) return again({ form, errors: checked.errors }, 400);
    if (confirm === 'change') return again({ form, errors: [] }, 200);
    const context = { ...request, csrfToken: session.csrfToken };
    if (confirm !== 'yes') {
      const balance = await smsBalanceOf(member);
      return htmlPage(
        checkSmsPage(context, checked.sms, form, balance),
        balance < checked.sms.segments ? 422 : 200,
      );
    }
    try {
      await sendSmsFor(member, checked.sms, request.sourceIp);
      return redirectTo(dashboardUrl(request, '/sms'));
    } catch (error) {
      if (!(error instanceof InsufficientSmsBalance)) throw error;
      // The balance's own condition refused it: nothing was written or charged.
      return htmlPage(checkSmsPage(context, checked.sms, form, await smsBalanceOf(member), true), 422);
    }
  },
  { maxFormFieldChars: 4096 },
);
