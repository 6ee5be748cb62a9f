import { randomUUID } from 'node:crypto';
import type { CreateTransferBody } from '#shared/api/transfers.ts';
import { getBusiness } from '#shared/data/business.ts';
import { type Contact, contactCreationWrites, findContactByBeneficiary } from '#shared/data/contact.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { outboxWrite } from '#shared/data/outbox.ts';
import { getStore, type Store } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import {
  type TransactionRecord,
  transactionRecordsWrites,
  transactionRecordWrites,
} from '#shared/data/transaction-record.ts';
import {
  getTransfer,
  recordPayoutStarted,
  type Transfer,
  transferCreationWrites,
} from '#shared/data/transfer.ts';
import { reserveWrite } from '#shared/data/wallet.ts';
import { type Caller, callerSeesStore } from '#shared/domain/caller.ts';
import { beneficiaryKey, identifierLabel, type StoreIdentifier } from '#shared/domain/contacts.ts';
import { payoutFeeScheduleFromEnvironment, splitFee } from '#shared/domain/fees.ts';
import { accounts, storeTransferPostings } from '#shared/domain/ledger.ts';
import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { BeneficiaryClaimed } from '#shared/errors/contacts.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { TransferNotFound } from '#shared/errors/transfers.ts';
import { count } from '#shared/metrics.ts';
import {
  completeTransfer,
  settleTransfer,
  transferCompletedEvent,
} from '#shared/operations/complete-transfer.ts';
import { liveContact, newContact } from '#shared/operations/contacts.ts';
import { storeForCollection } from '#shared/operations/stores.ts';
import { dispatchPromptly } from '#shared/operations/webhook-dispatch.ts';
import { providerFor } from '#shared/providers/routing.ts';

const payoutFees = payoutFeeScheduleFromEnvironment();

/** Whom the money goes to: a contact (existing, or to be written with the transfer), and for `svc` the store. */
interface Beneficiary {
  contact: Contact;
  isNew: boolean;
  destination?: Store | undefined;
}

/** A store of the caller's business (and within a scoped key's store) that can receive a transfer. */
async function destinationStore(caller: Caller, storeId: string, source: Store): Promise<Store> {
  const store = callerSeesStore(caller, storeId) ? await getStore(caller.businessId, storeId) : undefined;
  if (!store) throw new StoreNotFound();
  if (store.id === source.id) {
    throw new ValidationFailed([
      {
        field: 'destinationStoreId',
        rule: 'different',
        message: 'The destinationStoreId field must be another store than storeId.',
      },
    ]);
  }
  if (store.currency !== source.currency) {
    throw new ValidationFailed([
      {
        field: 'destinationStoreId',
        rule: 'currency',
        message: `The destination store does not keep ${source.currency}.`,
      },
    ]);
  }
  return store;
}

/** The beneficiary's live contact, or a hidden one made for it (written with the transfer). */
async function contactFor(
  caller: Caller,
  beneficiary: Pick<Contact, 'name' | 'paymentMethod' | 'identifier'>,
): Promise<{ contact: Contact; isNew: boolean }> {
  const existing = await findContactByBeneficiary(
    caller.businessId,
    beneficiaryKey(beneficiary.paymentMethod, beneficiary.identifier),
  );
  if (existing) return { contact: existing, isNew: false };
  return { contact: newContact(caller.businessId, beneficiary, true), isNew: true };
}

async function resolveBeneficiary(
  caller: Caller,
  source: Store,
  body: CreateTransferBody,
): Promise<Beneficiary> {
  const { beneficiary } = body;
  if (beneficiary.form === 'contact') {
    const contact = await liveContact(caller, beneficiary.contactId);
    if (contact.paymentMethod !== 'svc') return { contact, isNew: false };
    const storeId = (contact.identifier as StoreIdentifier).storeId;
    return { contact, isNew: false, destination: await destinationStore(caller, storeId, source) };
  }
  if (beneficiary.form === 'inline') return contactFor(caller, beneficiary);
  const destination = await destinationStore(caller, beneficiary.destinationStoreId, source);
  const found = await contactFor(caller, {
    name: destination.name,
    paymentMethod: 'svc',
    identifier: { storeId: destination.id },
  });
  return { ...found, destination };
}

/**
 * Creates a transfer. To another store of the business (`svc`): one immediate ledger entry
 * between the two wallets, reported in both stores' lists. Through a provider: amount + fee are
 * reserved on the operating wallet in the same transaction that records the transfer (so the
 * balance drops at once and nothing else can spend it), then the provider is asked to pay out; it
 * answers later by callback (or the status query), and the reservation is posted or released then.
 * Not enough available balance: 422 insufficient_balance and nothing written.
 */
export async function createTransferFor(
  caller: Caller,
  body: CreateTransferBody,
  baseUrl: string,
): Promise<Transfer> {
  const store = await storeForCollection(caller, body.storeId, body.currency);
  for (let attempt = 1; ; attempt++) {
    const beneficiary = await resolveBeneficiary(caller, store, body);
    try {
      return beneficiary.destination
        ? await storeTransfer(caller, store, body, beneficiary, beneficiary.destination)
        : await payout(caller, store, body, beneficiary, baseUrl);
    } catch (error) {
      // Another request saved the same new beneficiary first: use its contact.
      if (!(error instanceof BeneficiaryClaimed) || attempt >= 3) throw error;
    }
  }
}

function newTransfer(
  store: Store,
  body: CreateTransferBody,
  beneficiary: Beneficiary,
  status: Transfer['status'],
): Transfer {
  const id = randomUUID();
  const now = new Date().toISOString();
  const method = beneficiary.contact.paymentMethod;
  return {
    id,
    businessId: store.businessId,
    storeId: store.id,
    storeName: store.name,
    contactId: beneficiary.contact.id,
    amountCents: body.amountCents,
    feeCents: splitFee(body.amountCents, payoutFees[method]).fee,
    currency: store.currency,
    status,
    errorReason: null,
    paymentMethod: method,
    beneficiary: beneficiary.contact.name,
    beneficiaryIdentifier: beneficiary.contact.identifier,
    destinationStoreId: beneficiary.destination?.id,
    description: body.description ?? `Transfer to ${beneficiary.contact.name}`,
    // Without a reference of the merchant's, the transfer's id stands in (unique already, unclaimed).
    reference: body.reference ?? id,
    referenceClaimed: body.reference !== undefined,
    transactionId: randomUUID(),
    createdAt: now,
    updatedAt: now,
  };
}

export function sendingRecord(transfer: Transfer): TransactionRecord {
  return {
    id: transfer.transactionId,
    businessId: transfer.businessId,
    storeId: transfer.storeId,
    type: 'transfer',
    status: transfer.status,
    amount: { amount: transfer.amountCents, currency: transfer.currency },
    fees: { amount: transfer.feeCents, currency: transfer.currency },
    currency: transfer.currency,
    paymentMethod: transfer.paymentMethod,
    counterpartLabel: transfer.beneficiary,
    counterpartIdentifier: identifierLabel(transfer.beneficiaryIdentifier),
    description: transfer.description,
    reference: transfer.reference,
    createdAt: transfer.createdAt,
    transactionDetails: { id: transfer.id, reference: transfer.reference },
  };
}

async function payout(
  _caller: Caller,
  store: Store,
  body: CreateTransferBody,
  beneficiary: Beneficiary,
  baseUrl: string,
): Promise<Transfer> {
  const transfer = newTransfer(store, body, beneficiary, 'pending');
  const wallet = { businessId: store.businessId, storeId: store.id, kind: 'operating' as const };
  const reserved = transfer.amountCents + transfer.feeCents;
  transfer.reservation = {
    account: accounts.wallet(wallet.businessId, wallet.storeId, wallet.kind),
    amount: reserved,
    state: 'open',
  };
  const writes: GuardedWrite[] = [
    reserveWrite(wallet, reserved, () => new InsufficientBalance()),
    ...transferCreationWrites(transfer),
    ...(beneficiary.isNew ? contactCreationWrites(beneficiary.contact) : []),
    ...transactionRecordWrites(sendingRecord(transfer)),
  ];
  await transactWrite(writes);
  count('TransfersCreated', { provider: transfer.paymentMethod });
  return startTransferPayout(transfer, baseUrl);
}

/**
 * Asks the provider to pay out a transfer recorded pending with its reservation (a transfer, or an
 * escrow's refund). A refusal ends it at once and gives the reservation back; anything else leaves
 * it pending for the status query.
 */
export async function startTransferPayout(transfer: Transfer, baseUrl: string): Promise<Transfer> {
  const method = transfer.paymentMethod as PayoutMethod;
  const identifier = transfer.beneficiaryIdentifier;
  try {
    const started = await providerFor(method).startPayout({
      transferId: transfer.id,
      method,
      amountCents: transfer.amountCents,
      currency: transfer.currency,
      beneficiaryName: transfer.beneficiary,
      beneficiaryNumber: 'number' in identifier ? identifier.number : undefined,
      beneficiaryAccount: 'accountNumber' in identifier ? { ...identifier } : undefined,
      callbackUrl: `${baseUrl}/provider_callbacks/${method}/payouts`,
    });
    await recordPayoutStarted(transfer, started.providerReference);
    if (started.outcome) {
      // The provider's answer is already final: the transfer ends now, once, as a callback would end it.
      const { result, events } = await completeTransfer({
        callbackId: `start:${transfer.id}`,
        method,
        providerReference: started.providerReference,
        transferId: transfer.id,
        outcome: started.outcome,
      });
      await dispatchPromptly(events);
      if (result === 'completed') {
        const settled = await getTransfer(transfer.businessId, transfer.id);
        if (settled) return settled;
      }
    }
    return { ...transfer, providerReference: started.providerReference };
  } catch (error) {
    if (error instanceof ProviderRefused) {
      // Refused before any money moved: the reservation goes back and the reference is free again.
      await dispatchPromptly(
        await settleTransfer(transfer, 'error', 'third_party_payment_provider_error', {
          releaseReference: true,
        }),
      );
    }
    // Anything else leaves the transfer pending: the status query settles it later.
    throw error;
  }
}

async function storeTransfer(
  caller: Caller,
  store: Store,
  body: CreateTransferBody,
  beneficiary: Beneficiary,
  destination: Store,
): Promise<Transfer> {
  const business = await getBusiness(caller.businessId);
  if (!business) throw new StoreNotFound();
  const transfer = newTransfer(store, body, beneficiary, 'success');
  transfer.receivingTransactionId = randomUUID();
  const at = new Date(transfer.createdAt);
  const event = transferCompletedEvent(transfer, business.name, 'success', at);
  const writes: GuardedWrite[] = [
    ...ledgerWrites({
      id: `transfer:${transfer.id}`,
      kind: 'transfer',
      cause: `transfer ${transfer.id}`,
      createdAt: transfer.createdAt,
      postings: storeTransferPostings({
        businessId: store.businessId,
        fromStoreId: store.id,
        toStoreId: destination.id,
        amount: transfer.amountCents,
        fee: transfer.feeCents,
      }),
    }),
    ...transferCreationWrites(transfer),
    ...(beneficiary.isNew ? contactCreationWrites(beneficiary.contact) : []),
    ...transactionRecordsWrites([
      sendingRecord(transfer),
      {
        id: transfer.receivingTransactionId,
        businessId: store.businessId,
        storeId: destination.id,
        type: 'payment',
        status: 'success',
        amount: { amount: transfer.amountCents, currency: transfer.currency },
        fees: { amount: 0, currency: transfer.currency },
        currency: transfer.currency,
        paymentMethod: 'svc',
        counterpartLabel: store.name,
        counterpartIdentifier: store.id,
        description: transfer.description,
        reference: transfer.reference,
        createdAt: transfer.createdAt,
        transactionDetails: { id: transfer.id, reference: transfer.reference },
      },
    ]),
    outboxWrite(event),
  ];
  await transactWrite(writes);
  count('TransfersCreated', { provider: 'svc' });
  await dispatchPromptly([event]);
  return transfer;
}

export async function transferOf(caller: Caller, id: string): Promise<Transfer> {
  const transfer = await getTransfer(caller.businessId, id);
  if (!transfer || !callerSeesStore(caller, transfer.storeId)) throw new TransferNotFound();
  return transfer;
}
