import { randomBytes, randomUUID } from 'node:crypto';
import type { CreatePaymentLinkBody, ListPaymentLinksQuery } from '#shared/api/payment-links.ts';
import {
  attemptWrite,
  canReceivePayments,
  createPaymentLink,
  findPaymentLink,
  getPaymentLink,
  listPaymentLinks,
  type PaymentLink,
  releaseAttempt,
  setPaymentLinkActive,
} from '#shared/data/payment-link.ts';
import { getPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { getStore } from '#shared/data/store.ts';
import { type Caller, callerSeesStore } from '#shared/domain/caller.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import {
  PaymentLinkAlreadyUsed,
  PaymentLinkIsInvalid,
  PaymentLinkNotFound,
} from '#shared/errors/payment-links.ts';
import { assertMayHoldInEscrow, checkedTerms } from '#shared/operations/escrow-terms.ts';
import { openPaymentRequest, startCollection } from '#shared/operations/payment-requests.ts';
import { storeForCollection } from '#shared/operations/stores.ts';
import { actOnSandboxCollection } from '#shared/providers/sandbox.ts';

export async function createPaymentLinkFor(
  caller: Caller,
  body: CreatePaymentLinkBody,
): Promise<PaymentLink> {
  if (body.escrow) assertMayHoldInEscrow(caller);
  const store = await storeForCollection(caller, body.storeId, body.currency);
  const now = new Date().toISOString();
  const link: PaymentLink = {
    id: randomUUID(),
    businessId: caller.businessId,
    storeId: store.id,
    storeName: store.name,
    ...(store.country ? { storeCountry: store.country } : {}),
    title: body.title,
    amountCents: body.amountCents,
    currency: store.currency,
    allowMultiplePayments: body.allowMultiplePayments ?? false,
    paymentsCount: 0,
    active: true,
    ...(body.escrow ? { escrow: checkedTerms(body.escrow) } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await createPaymentLink(link);
  return link;
}

export async function paymentLinkOf(caller: Caller, id: string): Promise<PaymentLink> {
  const link = await getPaymentLink(caller.businessId, id);
  if (!link || !callerSeesStore(caller, link.storeId)) throw new PaymentLinkNotFound();
  return link;
}

/**
 * Switches one of the caller's links on or off; asking for the state it is in answers it as it is.
 * A single-use link that was paid cannot be switched on (409), whatever its state.
 */
export async function setPaymentLinkActiveFor(
  caller: Caller,
  id: string,
  active: boolean,
): Promise<PaymentLink> {
  const link = await paymentLinkOf(caller, id);
  if (active && !link.allowMultiplePayments && link.paidBy !== undefined) throw new PaymentLinkAlreadyUsed();
  if (link.active === active) return link;
  return setPaymentLinkActive(link, active);
}

/**
 * A page of the caller's links, newest first. A key scoped to a store lists that store whatever it
 * asks for; another business's store, or another store than a scoped key's, is not found.
 */
export async function paymentLinksOf(caller: Caller, query: ListPaymentLinksQuery) {
  const storeId = query.storeId ?? caller.storeId;
  if (storeId !== undefined) {
    if (!callerSeesStore(caller, storeId) || !(await getStore(caller.businessId, storeId)))
      throw new StoreNotFound();
  }
  const links = await listPaymentLinks(caller.businessId, { storeId, active: query.active });
  const first = (query.page - 1) * query.limit;
  return {
    total: links.length,
    perPage: query.limit,
    currentPage: query.page,
    data: links.slice(first, first + query.limit),
  };
}

/** For the public link page, which holds only the id. */
export async function paymentLinkById(id: string): Promise<PaymentLink> {
  const link = uuidPattern.test(id) ? await findPaymentLink(id) : undefined;
  if (!link) throw new PaymentLinkNotFound();
  return link;
}

export interface LinkPayment {
  request: PaymentRequest;
  /** Lets the same browser start over without waiting for its own attempt to lapse. */
  attemptToken: string;
}

/**
 * A customer pays through a link: a payment request carrying the link's id is created together
 * with the link's claim (a single-use link lets one attempt through at a time, and none once
 * paid), then the chosen provider's flow starts. The customer comes back to the link page.
 */
export async function payThroughLink(
  linkId: string,
  payment: {
    paymentMethod: ProviderCode;
    payerPhone?: string | undefined;
    attemptToken?: string | undefined;
  },
  baseUrl: string,
): Promise<LinkPayment> {
  const link = await paymentLinkById(linkId);
  if (!canReceivePayments(link)) throw new PaymentLinkIsInvalid();
  const store = await getStore(link.businessId, link.storeId);
  if (!store) throw new PaymentLinkNotFound();
  const id = randomUUID();
  const attemptToken = payment.attemptToken ?? randomBytes(16).toString('hex');
  // The customer comes back to the link page, which shows this payment's outcome.
  const linkPage = `${baseUrl}/pl/${link.id}?payment=${id}`;
  const request = await openPaymentRequest(
    {
      id,
      businessId: link.businessId,
      store,
      reference: `pl-${id}`,
      type: 'redirect',
      paymentMethod: payment.paymentMethod,
      amountCents: link.amountCents,
      successUrl: linkPage,
      errorUrl: linkPage,
      forceProviderDirect: false,
      payerPhone: payment.payerPhone,
      paymentLinkId: link.id,
      paymentLinkSingleUse: !link.allowMultiplePayments,
      escrowTerms: link.escrow,
    },
    baseUrl,
    [attemptWrite(link, { paymentRequestId: id, token: attemptToken })],
  );
  return { request: await startLinkCollection(link, request, payment, baseUrl), attemptToken };
}

/**
 * Starts the collection of a payment through a link. Whatever stops it from starting, a single-use
 * link must not stay held by an attempt that cannot go anywhere.
 */
export async function startLinkCollection(
  link: PaymentLink,
  request: PaymentRequest,
  payment: { paymentMethod: ProviderCode; payerPhone?: string | undefined },
  baseUrl: string,
  options: { payerMayRetry?: boolean } = {},
): Promise<PaymentRequest> {
  try {
    return await startCollection(
      request,
      'redirect',
      payment.paymentMethod,
      payment.payerPhone,
      baseUrl,
      options,
    );
  } catch (error) {
    if (!link.allowMultiplePayments) await releaseAttempt(link.businessId, link.id, request.id);
    throw error;
  }
}

/**
 * Sandbox helper: a customer pays the caller's link and answers in their app at once; the
 * sandbox number chooses the outcome. Answers the payment request as it is afterwards.
 */
export async function payLinkAsSandboxCustomer(
  caller: Caller,
  linkId: string,
  payment: { paymentMethod: ProviderCode; payerPhone: string },
  baseUrl: string,
): Promise<PaymentRequest> {
  await paymentLinkOf(caller, linkId);
  const { request } = await payThroughLink(linkId, payment, baseUrl);
  await actOnSandboxCollection(request.providerReference as string, 'approve', payment.payerPhone);
  return (await getPaymentRequest(caller.businessId, request.id, true)) ?? request;
}
