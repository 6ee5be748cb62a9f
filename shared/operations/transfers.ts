import { randomUUID } from 'node:crypto';
import type { CreateTransferBody } from '#shared/api/transfers.ts';
import { type Contact, contactCreationWrites, findContactByBeneficiary } from '#shared/data/contact.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { getStore, type Store } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import {
  type TransactionRecord,
  transactionRecordsWrites,
  transactionRecordWrites,
} from '#shared/data/transaction-record.ts';
import { getTransfer, type Transfer, transferCreationWrites } from '#shared/data/transfer.ts';
import { reserveWrite } from '#shared/data/wallet.ts';
import { type Caller, callerSeesStore } from '#shared/domain/caller.ts';
import { beneficiaryKey, identifierLabel, type StoreIdentifier } from '#shared/domain/contacts.ts';
import { payoutFeeScheduleFromEnvironment, splitFee } from '#shared/domain/fees.ts';
import { accounts, storeTransferPostings } from '#shared/domain/ledger.ts';
import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { BeneficiaryClaimed } from '#shared/errors/contacts.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { TransferNotFound } from '#shared/errors/transfers.ts';
import { count } from '#shared/metrics.ts';
import { liveContact, newContact } from '#shared/operations/contacts.ts';
import { storeForCollection } from '#shared/operations/stores.ts';
import { assertOperatorAvailable } from '#shared/providers/routing.ts';
import { startTransferPayout } from '#shared/settlement/transfer-payouts.ts';

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
  options: TransferOptions = {},
): Promise<Transfer> {
  const store = await storeForCollection(caller, body.storeId, body.currency);
  for (let attempt = 1; ; attempt++) {
    const beneficiary = await resolveBeneficiary(caller, store, body);
    try {
      return beneficiary.destination
        ? await storeTransfer(store, body, beneficiary, beneficiary.destination)
        : await payout(store, body, beneficiary, baseUrl, options);
    } catch (error) {
      // Another request saved the same new beneficiary first: use its contact.
      if (!(error instanceof BeneficiaryClaimed) || attempt >= 3) throw error;
    }
  }
}

/** What only the service's own callers set: a withdrawal names the payout account it pays. */
export interface TransferOptions {
  payoutAccountId?: string;
}

function newTransfer(
  store: Store,
  body: CreateTransferBody,
  beneficiary: Beneficiary,
  status: Transfer['status'],
  options: TransferOptions = {},
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
    ...(options.payoutAccountId ? { payoutAccountId: options.payoutAccountId } : {}),
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
  store: Store,
  body: CreateTransferBody,
  beneficiary: Beneficiary,
  baseUrl: string,
  options: TransferOptions,
): Promise<Transfer> {
  const transfer = newTransfer(store, body, beneficiary, 'pending', options);
  const identifier = transfer.beneficiaryIdentifier;
  await assertOperatorAvailable(
    transfer.paymentMethod as PayoutMethod,
    { phone: 'number' in identifier ? identifier.number : undefined, country: store.country },
    'payout',
  );
  transfer.callbackUrl = `${baseUrl}/provider_callbacks/${transfer.paymentMethod}/payouts`;
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
  // A refusal ends it in error, its reservation and reference given back; anything else leaves it
  // pending for its callback or the sweep.
  return startTransferPayout(transfer);
}

async function storeTransfer(
  store: Store,
  body: CreateTransferBody,
  beneficiary: Beneficiary,
  destination: Store,
): Promise<Transfer> {
  const transfer = newTransfer(store, body, beneficiary, 'success');
  transfer.receivingTransactionId = randomUUID();
  // Its TRANSACTION_COMPLETED leaves from the table's stream, which carries the transfer's insert.
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
  ];
  await transactWrite(writes);
  count('TransfersCreated', { provider: 'svc' });
  return transfer;
}

export async function transferOf(caller: Caller, id: string): Promise<Transfer> {
  const transfer = await getTransfer(caller.businessId, id);
  if (!transfer || !callerSeesStore(caller, transfer.storeId)) throw new TransferNotFound();
  return transfer;
}
