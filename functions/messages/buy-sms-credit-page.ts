import { randomUUID } from 'node:crypto';
import { smsCreditEndpoints } from '#shared/api/sms-credit.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { BadRequest } from '#shared/errors/request.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { actorOf } from '#shared/operations/audit-log.ts';
import { callerForMember } from '#shared/operations/dashboard-access.ts';
import { smsPageData } from '#shared/operations/dashboard-sms.ts';
import { buySmsCredit, smsPacks, smsSegmentPriceCents } from '#shared/operations/sms-credit.ts';
import { balanceOf, storeForCollection } from '#shared/operations/stores.ts';
import { smsPage } from '#shared/pages/dashboard-sms.ts';
import { checkSmsCreditPage, type SmsCreditField } from '#shared/pages/dashboard-sms-credit.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  smsCreditEndpoints.buySmsCreditPage,
  async (request, member, session) => {
    const caller = callerForMember(member);
    const { segments: segmentsText, storeId, idempotencyKey } = request.fields;
    const segments = (smsPacks as readonly number[]).find((pack) => String(pack) === segmentsText);
    const errors: SmsCreditField[] = [];
    if (segments === undefined) errors.push('segments');
    if (!storeId) errors.push('storeId');
    const context = { ...request, csrfToken: session.csrfToken };
    if (segments === undefined || errors.length > 0) {
      const data = await smsPageData(member, 1);
      const page = smsPage({ ...context, ...data, canSend: roleAllows(member.role, 'sendSms') }, undefined, {
        segments: segmentsText,
        storeId,
        errors,
      });
      return htmlPage(page, 400);
    }
    // Another business's store is not found (404), as in the API.
    const store = await storeForCollection(caller, storeId, undefined);
    const priceCents = segments * smsSegmentPriceCents();
    /** The check step, with the store's balance as it is now; 422 when it cannot pay (or did not). */
    const check = async (key: string, refused = false) => {
      const availableCents = (await balanceOf(caller, store.id)).amount;
      const page = checkSmsCreditPage(
        context,
        { segments, priceCents, store, availableCents, idempotencyKey: key },
        refused,
      );
      return htmlPage(page, refused || availableCents < priceCents ? 422 : 200);
    };
    if (idempotencyKey === undefined) return check(randomUUID());
    if (!/^[0-9a-f-]{36}$/.test(idempotencyKey)) throw new BadRequest('The purchase form has no key');
    try {
      // Once per check step: a double tap or a replay gets the first answer and pays once.
      await idempotent(
        {
          operation: 'dashboardBuySmsCredit',
          businessId: member.businessId,
          key: idempotencyKey,
          payload: { memberId: member.memberId, storeId: store.id, segments },
          context: request.context,
        },
        async () => {
          const purchase = await buySmsCredit(
            caller,
            { storeId: store.id, segments },
            { actor: actorOf(member), sourceIp: request.sourceIp },
          );
          return { id: purchase.id };
        },
      );
    } catch (error) {
      if (!(error instanceof InsufficientBalance)) throw error;
      // The wallet's own condition refused it: nothing was written or charged.
      return check(idempotencyKey, true);
    }
    return redirectTo(dashboardUrl(request, '/sms'));
  },
);
