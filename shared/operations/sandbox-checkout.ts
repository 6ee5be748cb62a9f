import { findPaymentRequest } from '#shared/data/payment-request.ts';
import { countryOfNumber, readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { SandboxCollectionNotFound } from '#shared/errors/providers.ts';
import { BadRequest } from '#shared/errors/request.ts';
import {
  actOnSandboxCollection,
  getSandboxCollection,
  type SandboxCollection,
} from '#shared/providers/sandbox.ts';

/**
 * The sandbox provider's checkout page, where the payer lands from the hosted page: it plays the
 * provider's approval screen. Approving or declining goes through the sandbox provider, which
 * calls the service back, signed, like a real provider; the payer is then sent to the service's
 * return page.
 */

const referencePattern = /^sbx_[0-9a-f-]{36}$/;

export interface SandboxCheckout {
  collection: SandboxCollection;
  /** Whom the payer pays, as a provider's screen shows it. */
  merchantName: string | undefined;
}

export type SandboxCheckoutView =
  | { outcome: 'open'; checkout: SandboxCheckout }
  /** The payer already answered: the provider sends them back to the service. */
  | { outcome: 'answered'; returnUrl: string };

async function collectionOf(providerReference: string): Promise<SandboxCollection> {
  const collection = referencePattern.test(providerReference)
    ? await getSandboxCollection(providerReference)
    : undefined;
  if (!collection) throw new SandboxCollectionNotFound();
  return collection;
}

async function checkoutOf(collection: SandboxCollection): Promise<SandboxCheckout> {
  const request = await findPaymentRequest(collection.paymentRequestId);
  return { collection, merchantName: request?.storeName };
}

export async function viewSandboxCheckout(providerReference: string): Promise<SandboxCheckoutView> {
  const collection = await collectionOf(providerReference);
  if (collection.state !== 'open') return { outcome: 'answered', returnUrl: collection.returnUrl };
  return { outcome: 'open', checkout: await checkoutOf(collection) };
}

export type SandboxCheckoutAnswer =
  | { outcome: 'answered'; returnUrl: string }
  /** The phone typed is not a valid number: the page again, with the number as typed. */
  | { outcome: 'retry'; checkout: SandboxCheckout; payerPhone: string };

/** The payer pressed Approve or Decline. A collection already answered just sends them back. */
export async function answerSandboxCheckout(
  providerReference: string,
  action: string | undefined,
  payerPhoneInput: string | undefined,
): Promise<SandboxCheckoutAnswer> {
  if (action !== 'approve' && action !== 'decline')
    throw new BadRequest('The action must be approve or decline');
  const collection = await collectionOf(providerReference);
  if (collection.state !== 'open') return { outcome: 'answered', returnUrl: collection.returnUrl };
  const typed = payerPhoneInput?.trim() ?? '';
  // A national number is read in the country of the number the payer gave on the service's page.
  const country = collection.payerPhone ? countryOfNumber(collection.payerPhone) : undefined;
  const payerPhone = typed === '' ? collection.payerPhone : readZoneNumber(typed, country)?.e164;
  if (!payerPhone) {
    return { outcome: 'retry', checkout: await checkoutOf(collection), payerPhone: typed };
  }
  await actOnSandboxCollection(providerReference, action, payerPhone);
  return { outcome: 'answered', returnUrl: collection.returnUrl };
}
