import { randomBytes } from 'node:crypto';
import { latestAskedPayments, putAskedPayment } from '#shared/data/asked-payment.ts';
import type { Message } from '#shared/data/message.ts';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { listStores, type Store } from '#shared/data/store.ts';
import { defaultStoreCountry } from '#shared/domain/country-time-zones.ts';
import { readFrancs } from '#shared/domain/franc-amounts.ts';
import { maxAmountCents } from '#shared/domain/money.ts';
import { providersByUseIn } from '#shared/domain/operator-countries.ts';
import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';
import { maskPhone, readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { countSegments } from '#shared/domain/sms-segments.ts';
import { isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { InsufficientSmsBalance } from '#shared/errors/messages.ts';
import { PaymentRequestNotFound } from '#shared/errors/payment-requests.ts';
import { logger } from '#shared/logger.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { cancelPaymentRequestFor } from '#shared/operations/end-payment.ts';
import { messageAccountOf, sendMessageFor } from '#shared/operations/messages.ts';
import { createPaymentRequestFor, paymentRequestOf } from '#shared/operations/payment-requests.ts';

/**
 * "Ask for a payment" (issue 26, item 4): an amount, a note and the payer's number make a payment
 * request through the API's own operation, on the hosted page's flow (the payer chooses how to pay
 * there), whose address goes to the payer by SMS through the API's message operation, charged to
 * the business's SMS balance.
 *
 * No request without its SMS, no SMS charged without a request: the balance is read first and an
 * empty one (short of the text's segments) refuses before anything is written. Should another send
 * spend the balance between that read and this SMS, the message's own transaction refuses it
 * (nothing charged) and the request just made is cancelled at once, so no payer can be sent to it.
 */

/** How long the payer has: a day, since the text may be read hours later (the API's default is 30 minutes). */
export const askedPaymentLifetimeMs = 24 * 3600 * 1000;

/**
 * The request's reference, which the hosted page shows the payer as the merchant's order: short
 * enough to read out (`7F3A-09C2`), random enough that a business's never meet in practice (a
 * repeat would be refused, 409, as in the API).
 */
const askReference = () => {
  const hex = randomBytes(4).toString('hex').toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
};

/** Up to the API's description length. */
export const maxNoteCharacters = 255;

/** The latest asks the page lists. */
export const askedListLength = 20;

export type AskField = 'storeId' | 'amount' | 'payerPhone' | 'note';
export type AskRule = 'required' | 'format' | 'min' | 'max' | 'unserved';
export interface AskError {
  field: AskField;
  rule: AskRule;
}

export interface AskForm {
  storeId: string;
  amount: string;
  payerPhone: string;
  note: string;
  /** The country chosen beside the number for its national form (`SN`); else the store's. */
  phoneCountry?: string | undefined;
}

export interface CheckedAsk {
  store: Store;
  amountCents: number;
  /** International form. */
  payerPhone: string;
  note?: string | undefined;
  /** The provider the hosted page offers first: the payer's country's common wallet (Wave in Senegal). */
  paymentMethod: ProviderCode;
}

const storeCountry = (store: Store | undefined): UemoaCountry => store?.country ?? defaultStoreCountry;

/** The form as typed, read as the API would take it: each field's first error, or the ask. */
export function checkAskForm(
  form: AskForm,
  stores: readonly Store[],
): { ask: CheckedAsk } | { errors: AskError[] } {
  const errors: AskError[] = [];
  const store = stores.find((candidate) => candidate.id === form.storeId);
  if (!store) errors.push({ field: 'storeId', rule: 'required' });
  const amountCents = readFrancs(form.amount);
  if (form.amount.trim() === '') errors.push({ field: 'amount', rule: 'required' });
  else if (amountCents === undefined) errors.push({ field: 'amount', rule: 'format' });
  else if (amountCents < 100) errors.push({ field: 'amount', rule: 'min' });
  else if (amountCents > maxAmountCents) errors.push({ field: 'amount', rule: 'max' });
  // A national number is read in the country chosen beside it, else the store's, as its payers write it.
  const country = isUemoaCountry(form.phoneCountry) ? form.phoneCountry : storeCountry(store);
  const payer = readZoneNumber(form.payerPhone, country);
  const paymentMethod = payer && providersByUseIn(payer.country, providerCodes)[0];
  if (form.payerPhone.trim() === '') errors.push({ field: 'payerPhone', rule: 'required' });
  else if (!payer) errors.push({ field: 'payerPhone', rule: 'format' });
  else if (!paymentMethod) errors.push({ field: 'payerPhone', rule: 'unserved' });
  const note = form.note.trim();
  if ([...note].length > maxNoteCharacters) errors.push({ field: 'note', rule: 'max' });
  if (errors.length > 0 || !store || amountCents === undefined || !payer || !paymentMethod) return { errors };
  return {
    ask: { store, amountCents, payerPhone: payer.e164, note: note || undefined, paymentMethod },
  };
}

/**
 * The SMS's text for the hosted page at `pageUrl`, in the member's words (the page builds it:
 * `askSmsText` of shared/pages/dashboard-payment-requests.ts).
 */
export type AskSmsText = (ask: AskSummary, pageUrl: string) => string;

export interface AskSummary {
  businessName: string;
  amountCents: number;
  currency: string;
  note?: string | undefined;
}

/**
 * The hosted page's address as `openPaymentRequest` makes it (`redirectUrl`), for an id of the
 * length every request id has: the text's length, and so its segments, are known before.
 */
const placeholderPageUrl = (baseUrl: string) => `${baseUrl}/payment/00000000-0000-0000-0000-000000000000`;

export interface AskPreview {
  text: string;
  segments: number;
  smsBalance: number;
}

/** What the check step shows: the text as the payer will read it, its segments, and the balance. */
export async function previewAsk(
  member: ActingMember,
  ask: CheckedAsk,
  smsText: AskSmsText,
  baseUrl: string,
): Promise<AskPreview> {
  const text = smsText(askOf(member, ask), placeholderPageUrl(baseUrl));
  const account = await messageAccountOf(callerForMember(member));
  return { text, segments: countSegments(text).segments, smsBalance: account.smsBalance };
}

const askOf = (member: ActingMember, ask: CheckedAsk): AskSummary => ({
  businessName: member.businessName,
  amountCents: ask.amountCents,
  currency: ask.store.currency,
  note: ask.note,
});

/**
 * Makes the request and texts its address to the payer, then records the ask in the business's
 * list and in the audit log. Refused with `InsufficientSmsBalance` (422) before anything is
 * written when the balance is short of the text's segments.
 */
export async function askForPayment(
  member: ActingMember,
  ask: CheckedAsk,
  smsText: AskSmsText,
  { baseUrl, sourceIp }: { baseUrl: string; sourceIp: string },
): Promise<{ request: PaymentRequest; message: Message }> {
  const caller = callerForMember(member);
  const preview = await previewAsk(member, ask, smsText, baseUrl);
  if (preview.smsBalance < preview.segments) throw new InsufficientSmsBalance(preview.segments);
  const request = await createPaymentRequestFor(
    caller,
    {
      storeId: ask.store.id,
      amountCents: ask.amountCents,
      currency: ask.store.currency,
      reference: askReference(),
      description: ask.note,
      expiresAt: new Date(Date.now() + askedPaymentLifetimeMs).toISOString(),
      // No return URLs: the payer has no shop site to go back to, and the hosted page shows
      // the outcome itself (`destinationOf`).
      paymentDetails: {
        type: 'redirect',
        data: { paymentMethod: ask.paymentMethod, payerPhone: ask.payerPhone },
      },
    },
    baseUrl,
  );
  let message: Message;
  try {
    message = await sendMessageFor(caller, {
      channel: 'sms',
      to: ask.payerPhone,
      body: smsText(askOf(member, ask), request.redirectUrl),
      reference: `payment-request-${request.id}`,
    });
  } catch (error) {
    // The balance was spent meanwhile (or the queue failed): the request nobody was told of ends.
    await cancelPaymentRequestFor(caller, request.id).catch((cancelError: unknown) =>
      logger.error('asked payment left open without its sms', {
        error: cancelError as Error,
        paymentRequestId: request.id,
      }),
    );
    throw error;
  }
  const askedAt = request.createdAt;
  await Promise.all([
    putAskedPayment({
      paymentRequestId: request.id,
      businessId: member.businessId,
      storeId: ask.store.id,
      messageId: message.id,
      memberId: member.memberId,
      askedAt,
    }),
    recordAudit(member, {
      action: 'payment_requested',
      subjectId: request.id,
      detail: `${ask.amountCents / 100} ${ask.store.currency} · ${maskPhone(ask.payerPhone)}`,
      sourceIp,
    }),
  ]);
  return { request, message };
}

/** The business's stores, for the form's choice. */
export const storesOf = (member: ActingMember): Promise<Store[]> => listStores(member.businessId);

/** The latest asks with their requests as the API shows them now (an expired one reads `expired`). */
export async function latestAsks(member: ActingMember): Promise<PaymentRequest[]> {
  const caller = callerForMember(member);
  const asked = await latestAskedPayments(member.businessId, askedListLength);
  const requests = await Promise.all(
    asked.map((entry) =>
      paymentRequestOf(caller, entry.paymentRequestId).catch((error: unknown) => {
        if (error instanceof PaymentRequestNotFound) return undefined;
        throw error;
      }),
    ),
  );
  return requests.filter((request): request is PaymentRequest => request !== undefined);
}

/** What the page shows: the stores to ask for, the SMS balance, the latest asks. */
export async function askPageData(member: ActingMember) {
  const [stores, account, asks] = await Promise.all([
    storesOf(member),
    messageAccountOf(callerForMember(member)),
    latestAsks(member),
  ]);
  return { stores, smsBalance: account.smsBalance, asks };
}

/** One of the business's requests (another business's id: 404 `payment_request_not_found`). */
export const askedRequestOf = (member: ActingMember, id: string): Promise<PaymentRequest> =>
  paymentRequestOf(callerForMember(member), id);

/** How the page names a request's state. */
export type AskedStatus = 'pending' | 'paid' | 'expired' | 'cancelled' | 'failed';

export function askedStatusOf(request: PaymentRequest): AskedStatus {
  if (request.status === 'success') return 'paid';
  if (request.status === 'pending') return 'pending';
  if (request.errorReason === 'expired') return 'expired';
  if (request.errorReason === 'cancelled') return 'cancelled';
  return 'failed';
}
