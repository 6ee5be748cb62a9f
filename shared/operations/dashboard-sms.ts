import { randomUUID } from 'node:crypto';
import type { Message, MessageAccount } from '#shared/data/message.ts';
import { listStores } from '#shared/data/store.ts';
import { defaultStoreCountry, storeTimeZone } from '#shared/domain/country-time-zones.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { maskPhone, normalisePhoneNumber } from '#shared/domain/phone-numbers.ts';
import { countSegments, maxBodyCharacters } from '#shared/domain/sms-segments.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { messageAccountOf, messagesOf, sendMessageFor } from '#shared/operations/messages.ts';
import { smsSegmentPriceCents } from '#shared/operations/sms-credit.ts';
import { balanceOf } from '#shared/operations/stores.ts';

/**
 * The dashboard's SMS page (issue 26, item 6): the business's SMS balance, the messages it sent
 * with their status, and one sent from a form, all through the API's message operations (the same
 * balance, the same list, the same send). A send takes its segments from the balance in the very
 * transaction that records it: an empty balance refuses it (422) and nothing is written or charged.
 */

/** Messages a page lists. */
export const smsPageLength = 20;

export type SmsField = 'to' | 'body';
export type SmsRule = 'required' | 'format' | 'max';
export interface SmsError {
  field: SmsField;
  rule: SmsRule;
}

export interface SmsForm {
  to: string;
  body: string;
  /** The country chosen beside the number for its national form (`SN`); else the business's. */
  phoneCountry?: string | undefined;
}

export interface CheckedSms {
  /** International form. */
  to: string;
  body: string;
  segments: number;
}

/**
 * The form read as `POST /partner_api/messages` reads it: a recipient of the zone (a national
 * number read in `country`) or another country's in international form, a text of 1 to 918
 * characters as people count them.
 */
export function checkSmsForm(
  form: SmsForm,
  country: UemoaCountry,
): { sms: CheckedSms } | { errors: SmsError[] } {
  const errors: SmsError[] = [];
  const to = normalisePhoneNumber(form.to, country);
  if (form.to.trim() === '') errors.push({ field: 'to', rule: 'required' });
  else if (!to) errors.push({ field: 'to', rule: 'format' });
  if (form.body.trim() === '') errors.push({ field: 'body', rule: 'required' });
  else if ([...form.body].length > maxBodyCharacters) errors.push({ field: 'body', rule: 'max' });
  if (errors.length > 0 || !to) return { errors };
  return { sms: { to, body: form.body, segments: countSegments(form.body).segments } };
}

/** The country a national number typed on the page is read in: the business's first store's. */
export async function smsCountryOf(member: ActingMember): Promise<UemoaCountry> {
  const [store] = await listStores(member.businessId);
  return store?.country ?? defaultStoreCountry;
}

export interface SmsOverview {
  account: MessageAccount;
  messages: Message[];
  total: number;
  page: number;
}

/** The balance and one page of the sent messages, newest first (`GET /partner_api/messages`). */
export async function smsOverview(member: ActingMember, page: number): Promise<SmsOverview> {
  const caller = callerForMember(member);
  const [account, listing] = await Promise.all([
    messageAccountOf(caller),
    messagesOf(caller, { page, limit: smsPageLength }),
  ]);
  return { account, messages: listing.data, total: listing.total, page };
}

/**
 * What the SMS page shows, with the time zone its times are read in (the first store's) and, for
 * roles that may buy credit, the stores with their available balance and the price of a segment.
 */
export async function smsPageData(member: ActingMember, page: number) {
  const [overview, stores] = await Promise.all([smsOverview(member, page), listStores(member.businessId)]);
  const credit = roleAllows(member.role, 'buySmsCredit')
    ? {
        stores: await Promise.all(
          stores.map(async (store) => ({
            store,
            availableCents: (await balanceOf(callerForMember(member), store.id)).amount,
          })),
        ),
        segmentPriceCents: smsSegmentPriceCents(),
      }
    : undefined;
  const phoneCountry: UemoaCountry = stores[0]?.country ?? defaultStoreCountry;
  return { ...overview, timeZone: storeTimeZone(stores[0] ?? {}), phoneCountry, credit };
}

export const smsBalanceOf = async (member: ActingMember): Promise<number> =>
  (await messageAccountOf(callerForMember(member))).smsBalance;

/** Sends the SMS on the business's balance (422 `insufficient_sms_balance`, nothing written), then records it. */
export async function sendSmsFor(member: ActingMember, sms: CheckedSms, sourceIp: string): Promise<Message> {
  const message = await sendMessageFor(callerForMember(member), {
    channel: 'sms',
    to: sms.to,
    body: sms.body,
    reference: `dashboard-${randomUUID()}`,
  });
  await recordAudit(member, {
    action: 'sms_sent',
    subjectId: message.id,
    detail: `${maskPhone(message.to)} · ${message.segments} SMS`,
    sourceIp,
  });
  return message;
}
