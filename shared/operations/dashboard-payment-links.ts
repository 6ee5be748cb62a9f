import { listLinkPayments } from '#shared/data/link-payments.ts';
import type { PaymentLink } from '#shared/data/payment-link.ts';
import { listStores, type Store } from '#shared/data/store.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import { maxAmountCents } from '#shared/domain/money.ts';
import { typedFrancsToCents } from '#shared/domain/typed-amount.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import {
  createPaymentLinkFor,
  paymentLinkOf,
  paymentLinksOf,
  setPaymentLinkActiveFor,
} from '#shared/operations/payment-links.ts';

/**
 * The dashboard's payment links (issue 26, item 3): listed, made, switched off and on, each with
 * its payments. Every step goes through the API's own operations (shared/operations/payment-links.ts)
 * as a platform caller of the member's business, so a link made here is the link the API makes,
 * under the same rules; each change is then recorded in the audit log.
 */
export const linksPerPage = 50;
/**
 * A link's bounds on the dashboard: a title of 1 to 255 characters ("Boubou" is a whole title: the
 * integrators' API keeps its contract's 10, the page asks only what a payer needs to read), at
 * least 100 F CFA.
 */
export const titleChars = { min: 1, max: 255 };
export const minAmountCents = 10_000;

export async function linksOverview(member: ActingMember, page: number) {
  const caller = callerForMember(member);
  const [links, stores] = await Promise.all([
    paymentLinksOf(caller, { page, limit: linksPerPage }),
    listStores(member.businessId),
  ]);
  return { ...links, stores };
}

export const storesOf = (member: ActingMember): Promise<Store[]> => listStores(member.businessId);

export interface NewLinkForm {
  storeId: string;
  title: string;
  /** As typed: `1 500`. */
  amount: string;
  reusable: boolean;
}

export type LinkFormField = 'storeId' | 'title' | 'amount';
export type LinkFormError =
  | { field: 'storeId'; problem: 'missing' }
  | { field: 'title'; problem: 'missing' | 'long' }
  | { field: 'amount'; problem: 'missing' | 'invalid' | 'small' | 'large' };

/** What is wrong with the form, field by field, in the order of the form; the amount in cents if right. */
export function checkLinkForm(
  form: NewLinkForm,
  stores: readonly Pick<Store, 'id'>[],
): { errors: LinkFormError[]; amountCents?: number } {
  const errors: LinkFormError[] = [];
  if (!stores.some((store) => store.id === form.storeId))
    errors.push({ field: 'storeId', problem: 'missing' });
  const title = form.title.trim();
  if (title.length < titleChars.min) errors.push({ field: 'title', problem: 'missing' });
  else if (title.length > titleChars.max) errors.push({ field: 'title', problem: 'long' });
  const amountCents = form.amount.trim() === '' ? undefined : typedFrancsToCents(form.amount);
  if (form.amount.trim() === '') errors.push({ field: 'amount', problem: 'missing' });
  else if (amountCents === undefined) errors.push({ field: 'amount', problem: 'invalid' });
  else if (amountCents < minAmountCents) errors.push({ field: 'amount', problem: 'small' });
  else if (amountCents > maxAmountCents) errors.push({ field: 'amount', problem: 'large' });
  return errors.length === 0 ? { errors, amountCents } : { errors };
}

/** Makes the link through the API's operation, then records who made it. */
export async function createLinkFor(
  member: ActingMember,
  form: NewLinkForm,
  amountCents: number,
  sourceIp: string,
): Promise<PaymentLink> {
  const link = await createPaymentLinkFor(callerForMember(member), {
    storeId: form.storeId,
    title: form.title.trim(),
    amountCents,
    allowMultiplePayments: form.reusable,
  });
  await recordAudit(member, {
    action: 'payment_link_created',
    subjectId: link.id,
    detail: `${link.title} (${link.amountCents / 100} ${link.currency}, ${link.allowMultiplePayments ? 'reusable' : 'single use'})`,
    sourceIp,
  });
  return link;
}

/** One of the business's links by id; another business's (or junk) is 404 `payment_link_not_found`. */
export const linkOf = (member: ActingMember, linkId: string): Promise<PaymentLink> =>
  paymentLinkOf(callerForMember(member), linkId);

/**
 * Switches a link off or on through the API's operation; recorded only when it changed (asking for
 * the state it is in changes nothing). A paid single-use link refuses to be switched on (409).
 */
export async function switchLinkFor(
  member: ActingMember,
  linkId: string,
  active: boolean,
  sourceIp: string,
): Promise<PaymentLink> {
  const caller = callerForMember(member);
  const before = await paymentLinkOf(caller, linkId);
  const after = await setPaymentLinkActiveFor(caller, before.id, active);
  if (before.active !== after.active) {
    await recordAudit(member, {
      action: active ? 'payment_link_switched_on' : 'payment_link_switched_off',
      subjectId: before.id,
      detail: before.title,
      sourceIp,
    });
  }
  return after;
}

export const linkPaymentsShown = 50;

/** The link's latest payments (shared/data/link-payments.ts says how far back and at what cost). */
export const paymentsOfLink = (link: PaymentLink): Promise<TransactionRecord[]> =>
  listLinkPayments(link, linkPaymentsShown);
