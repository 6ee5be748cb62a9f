import { randomUUID } from 'node:crypto';
import { createApiKey } from '#shared/data/api-key.ts';
import { createBusiness } from '#shared/data/business.ts';
import { registerDevice } from '#shared/data/device.ts';
import type { Message } from '#shared/data/message.ts';
import { createStore } from '#shared/data/store.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import type { Caller } from '#shared/domain/caller.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { authenticate } from '#shared/http/authenticate.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

/** A business with API access, one store, one soundbox and a merchant key, straight in DynamoDB. */
export async function merchant(
  options: { verificationLevel?: number; name?: string; ownerPhone?: string } = {},
) {
  const { business, owner } = await createBusiness({
    name: options.name ?? 'Boutique Test',
    apiAccessEnabled: true,
    isServiceProvider: false,
    verificationLevel: options.verificationLevel ?? 1,
    ...(options.ownerPhone ? { owner: { name: 'Awa Traoré', phone: options.ownerPhone } } : {}),
  });
  const store = await createStore({ businessId: business.id, name: 'Boutique Plateau' });
  const device = await registerDevice({
    businessId: business.id,
    storeId: store.id,
    deviceId: `sbx-${store.id}`,
  });
  const { apiKey, secret } = await createApiKey({
    businessId: business.id,
    kind: 'merchant',
    memberId: owner.id,
    name: 'k',
  });
  const caller: Caller = await authenticate({ 'x-api-key-id': apiKey.id, 'x-api-key': secret }, 'api_key');
  return { business, owner, store, device, caller };
}

/** The merchant's owner as the dashboard acts for it (what a signed-in owner's session gives). */
export const actingOwnerOf = (m: Awaited<ReturnType<typeof merchant>>): ActingMember => ({
  businessId: m.business.id,
  businessName: m.business.name,
  memberId: m.owner.id,
  userId: 'owner',
  role: 'owner',
  isServiceProvider: false,
  verificationLevel: m.business.verificationLevel,
});

export async function operatingWallet(businessId: string, storeId: string) {
  const wallets = await listStoreWallets(businessId, storeId);
  const wallet = wallets.find((w) => w.kind === 'operating');
  if (!wallet) throw new Error('no operating wallet');
  return wallet;
}

/**
 * A payment request of the store, collected by `provider` from `payerPhone` and completed by the
 * provider's success callback, played here: the request's id. With the sandbox's silent payer
 * (`+2250700000004`) nothing else is queued, and its refunds wait for the test too.
 */
export async function paidPayment(
  caller: Caller,
  storeId: string,
  input: { amountCents: number; provider: ProviderCode; payerPhone: string; reference?: string },
  baseUrl = 'http://localhost:0',
): Promise<string> {
  const { createPaymentRequestFor, startCollection } = await import('#shared/operations/payment-requests.ts');
  const { completePayment } = await import('#shared/settlement/collections.ts');
  const reference = input.reference ?? `ref-${crypto.randomUUID()}`;
  const request = await createPaymentRequestFor(
    caller,
    redirectRequestBody(storeId, {
      amountCents: input.amountCents,
      reference,
      paymentMethod: input.provider,
    }),
    baseUrl,
  );
  const started = await startCollection(request, 'redirect', input.provider, input.payerPhone, baseUrl);
  await completePayment({
    callbackId: reference,
    provider: input.provider,
    providerReference: started.providerReference as string,
    paymentRequestId: request.id,
    outcome: 'success',
    payerPhone: input.payerPhone,
  });
  return request.id;
}

/** A payout of the merchant's store to an MTN number, through the API's operation. */
export async function mtnPayout(
  m: { caller: Caller; store: { id: string } },
  amountCents: number,
  number: string,
  baseUrl = 'http://localhost:0',
) {
  const { createTransferBody } = await import('#shared/api/transfers.ts');
  const { createTransferFor } = await import('#shared/operations/transfers.ts');
  return createTransferFor(
    m.caller,
    createTransferBody.parse({
      storeId: m.store.id,
      amountCents,
      currency: 'XOF',
      name: 'Fournisseur',
      paymentMethod: 'mtn',
      identifier: { number },
    }),
    baseUrl,
  );
}

/** A charged SMS of the business, pending, as the service records one before it is sent. */
export function pendingSms(businessId: string, segments: number, overrides: Partial<Message> = {}): Message {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    businessId,
    channel: 'sms',
    to: '+2250700000001',
    body: 'Merci',
    reference: randomUUID(),
    status: 'pending',
    failedReason: null,
    segments,
    encoding: 'GSM-7',
    charged: true,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}
