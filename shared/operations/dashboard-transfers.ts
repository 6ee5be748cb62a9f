import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { Contact } from '#shared/data/contact.ts';
import { getMember } from '#shared/data/member.ts';
import { getStore, type Store } from '#shared/data/store.ts';
import {
  defaultStepUpThresholdCents,
  getTransferSettings,
  putTransferSettings,
} from '#shared/data/transfer-settings.ts';
import type { BeneficiaryMethod, MobileIdentifier } from '#shared/domain/contacts.ts';
import { payoutFeeScheduleFromEnvironment, splitFee } from '#shared/domain/fees.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { Cents } from '#shared/domain/money.ts';
import { maxAmountCents } from '#shared/domain/money.ts';
import { providerServes } from '#shared/domain/operator-countries.ts';
import { isProviderCode, type ProviderCode } from '#shared/domain/payment-methods.ts';
import { isUsable, payoutAccountLabel } from '#shared/domain/payout-accounts.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { TransferNotFound } from '#shared/errors/transfers.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { contactsOf, liveContact } from '#shared/operations/contacts.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { payoutAccountOf } from '#shared/operations/payout-accounts.ts';
import { balanceOf, storeForCollection, storesOf } from '#shared/operations/stores.ts';
import { transactionsOf } from '#shared/operations/transactions.ts';
import { checkStepUpCode, requestStepUpCode, stepUpBinding } from '#shared/operations/transfer-step-up.ts';
import { createTransferFor, transferOf } from '#shared/operations/transfers.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { operatorDown } from '#shared/providers/routing.ts';

/** What the API's transfer operation takes: the dashboard's form becomes the same body. */
type CreateTransferBody = Parameters<typeof createTransferFor>[1];
/**
 * Sending money from the dashboard (issue 26, item 5): a form read into the body the API's
 * `createTransfer` takes, a "check your answers" step that shows the amount, the fee and what the
 * store is debited (the operation reserves amount + fee), then the API's own operation, behind the
 * API's idempotency (the confirm form's key) and, above the owner's threshold, a fresh SMS code.
 */

const payoutFees = payoutFeeScheduleFromEnvironment();
const minAmountCents = 500;

/** The form as posted: every field text. */
export interface TransferForm {
  storeId: string;
  /**
   * Whom to: a saved contact, a new beneficiary (operator and number), another store, or one of the
   * business's own payout accounts (a withdrawal).
   */
  to: string;
  contactId: string;
  payoutAccountId?: string;
  destinationStoreId: string;
  name: string;
  paymentMethod: string;
  number: string;
  amount: string;
  description: string;
  /** The country chosen beside a new beneficiary's number for its national form; else the store's. */
  phoneCountry?: string;
}

/** The form's fields as posted (the page's declared form, or a withdrawal's), trimmed. */
export const transferFormOf = (
  form: Readonly<Partial<Record<TransferField | 'phoneCountry', string | undefined>>>,
): TransferForm => ({
  storeId: (form.storeId ?? '').trim(),
  to: (form.to ?? '').trim(),
  contactId: (form.contactId ?? '').trim(),
  payoutAccountId: (form.payoutAccountId ?? '').trim(),
  destinationStoreId: (form.destinationStoreId ?? '').trim(),
  name: (form.name ?? '').trim(),
  paymentMethod: (form.paymentMethod ?? '').trim(),
  number: (form.number ?? '').trim(),
  amount: (form.amount ?? '').trim(),
  description: (form.description ?? '').trim(),
  phoneCountry: (form.phoneCountry ?? '').trim(),
});

export type TransferField =
  | 'storeId'
  | 'to'
  | 'contactId'
  | 'payoutAccountId'
  | 'destinationStoreId'
  | 'name'
  | 'paymentMethod'
  | 'number'
  | 'amount'
  | 'description';

export type TransferProblem =
  | { field: TransferField; rule: 'required' | 'format' | 'min' | 'max' | 'same_store' | 'currency' }
  /** The operator does not take money in the number's country (the API's `provider_country`). */
  | { field: 'paymentMethod'; rule: 'provider_country'; provider: ProviderCode; country: UemoaCountry }
  | { field: 'amount'; rule: 'insufficient'; availableCents: Cents; totalCents: Cents }
  /** The operator is down right now (the API's 503 `provider_unavailable`): nothing is sent. */
  | { field: 'paymentMethod' | 'contactId' | 'payoutAccountId'; rule: 'down'; provider: ProviderCode }
  /** The payout account is still in its cooling period. */
  | { field: 'payoutAccountId'; rule: 'cooling'; usableFrom: string };

/** What the confirm step shows and posts: the checked transfer. */
export interface TransferDraft {
  store: Store;
  beneficiary: CreateTransferBody['beneficiary'];
  beneficiaryName: string;
  /** The number (E.164) or the receiving store's name. */
  beneficiaryIdentifier: string;
  method: BeneficiaryMethod;
  amountCents: Cents;
  feeCents: Cents;
  /** What the store is debited: the amount and the fee, as the operation reserves them. */
  totalCents: Cents;
  description: string;
  /** Above the business's threshold: the confirm step asks for an SMS code. */
  needsStepUp: boolean;
  /** A withdrawal: the business's own account it pays. */
  payoutAccountId?: string | undefined;
}

/**
 * Francs as people type them: `1 500`, `1500`, `1.500` (spaces, no-break spaces, dots as
 * thousands separators). Whole francs only: the franc CFA has no subunit in use.
 */
export function readFrancs(typed: string): Cents | undefined {
  const compact = typed.replace(/[\s\u00a0\u202f.]/g, '').replace(/(?:f ?cfa|fcfa|xof|f)$/i, '');
  if (!/^\d{1,13}$/.test(compact)) return undefined;
  return Number(compact) * 100;
}

export async function stepUpThresholdOf(businessId: string): Promise<Cents> {
  return (await getTransferSettings(businessId))?.stepUpThresholdCents ?? defaultStepUpThresholdCents;
}

/** What the pages need: the stores with their spendable balance, the contacts, the threshold. */
export async function sendMoneyOverview(member: ActingMember) {
  const caller = callerForMember(member);
  const [stores, contacts, thresholdCents] = await Promise.all([
    storesOf(caller),
    contactsOf(caller),
    stepUpThresholdOf(member.businessId),
  ]);
  const balances = await Promise.all(stores.map((store) => balanceOf(caller, store.id)));
  return {
    stores: stores.map((store, index) => ({ store, availableCents: balances[index]?.amount ?? 0 })),
    contacts: contacts.filter((contact) => contact.paymentMethod !== 'bank'),
    thresholdCents,
  };
}

export type TransferCheck = { problems: TransferProblem[] } | { draft: TransferDraft };

/**
 * The form checked as the API checks its body, plus the store's balance: problems on their
 * fields, or the draft. Another business's store or contact is not found (404), as in the API.
 */
export async function checkTransferForm(
  member: ActingMember,
  form: TransferForm,
  options: { checkBalance: boolean } = { checkBalance: true },
): Promise<TransferCheck> {
  const caller = callerForMember(member);
  const problems: TransferProblem[] = [];
  if (!form.storeId) problems.push({ field: 'storeId', rule: 'required' });
  const store = form.storeId ? await storeForCollection(caller, form.storeId, undefined) : undefined;
  const amountCents = readFrancs(form.amount);
  if (form.amount === '') problems.push({ field: 'amount', rule: 'required' });
  else if (amountCents === undefined) problems.push({ field: 'amount', rule: 'format' });
  else if (amountCents < minAmountCents) problems.push({ field: 'amount', rule: 'min' });
  else if (amountCents > maxAmountCents) problems.push({ field: 'amount', rule: 'max' });
  if (form.description.length > 255) problems.push({ field: 'description', rule: 'max' });

  let beneficiary: CreateTransferBody['beneficiary'] | undefined;
  let beneficiaryName = '';
  let beneficiaryIdentifier = '';
  let method: BeneficiaryMethod | undefined;
  let payoutAccountId: string | undefined;
  if (form.to === 'account') {
    if (!form.payoutAccountId) problems.push({ field: 'payoutAccountId', rule: 'required' });
    else {
      const account = await payoutAccountOf(member.businessId, form.payoutAccountId);
      if (!isUsable(account)) {
        problems.push({ field: 'payoutAccountId', rule: 'cooling', usableFrom: account.usableFrom });
      } else {
        beneficiary = {
          form: 'inline',
          name: account.holder,
          paymentMethod: account.paymentMethod,
          identifier: account.identifier,
        };
        beneficiaryName = account.holder;
        beneficiaryIdentifier = payoutAccountLabel(account);
        method = account.paymentMethod;
        payoutAccountId = account.id;
      }
    }
  } else if (form.to === 'contact') {
    if (!form.contactId) problems.push({ field: 'contactId', rule: 'required' });
    else {
      const contact: Contact = await liveContact(caller, form.contactId);
      beneficiary = { form: 'contact', contactId: contact.id };
      beneficiaryName = contact.name;
      beneficiaryIdentifier = 'number' in contact.identifier ? contact.identifier.number : contact.name;
      method = contact.paymentMethod;
    }
  } else if (form.to === 'store') {
    if (!form.destinationStoreId) problems.push({ field: 'destinationStoreId', rule: 'required' });
    else {
      const destination = await getStore(member.businessId, form.destinationStoreId);
      if (!destination) throw new StoreNotFound();
      if (store && destination.id === store.id)
        problems.push({ field: 'destinationStoreId', rule: 'same_store' });
      else if (store && destination.currency !== store.currency)
        problems.push({ field: 'destinationStoreId', rule: 'currency' });
      else {
        beneficiary = { form: 'store', destinationStoreId: destination.id };
        beneficiaryName = destination.name;
        beneficiaryIdentifier = destination.name;
        method = 'svc';
      }
    }
  } else if (form.to === 'new') {
    const inline = newBeneficiary(form, store?.country ?? null, problems);
    if (inline) {
      beneficiary = { form: 'inline', ...inline };
      beneficiaryName = inline.name;
      beneficiaryIdentifier = inline.identifier.number;
      method = inline.paymentMethod;
    }
  } else problems.push({ field: 'to', rule: 'required' });

  if (problems.length > 0 || !store || !beneficiary || !method || amountCents === undefined) {
    return { problems };
  }
  const feeCents = splitFee(amountCents, payoutFees[method]).fee;
  const totalCents = amountCents + feeCents;
  // The check step refuses what the balance cannot pay; the confirm step leaves it to the
  // operation (whose reservation is the guard), so a replayed confirm still gets its first answer.
  if (options.checkBalance) {
    const { amount: availableCents } = await balanceOf(caller, store.id);
    if (availableCents < totalCents) {
      return { problems: [{ field: 'amount', rule: 'insufficient', availableCents, totalCents }] };
    }
    // Said at the check step, before an SMS code is spent on a transfer that would be turned away.
    if (isProviderCode(method) && (await operatorDown(method, { phone: beneficiaryIdentifier }, 'payout'))) {
      const field =
        form.to === 'contact' ? 'contactId' : form.to === 'account' ? 'payoutAccountId' : 'paymentMethod';
      return { problems: [{ field, rule: 'down', provider: method }] };
    }
  }
  return {
    draft: {
      store,
      beneficiary,
      beneficiaryName,
      beneficiaryIdentifier,
      method,
      amountCents,
      feeCents,
      totalCents,
      description: form.description,
      needsStepUp: amountCents > (await stepUpThresholdOf(member.businessId)),
      payoutAccountId,
    },
  };
}

/** A new beneficiary: name, operator, and a number read in the store's country that the operator serves. */
export function newBeneficiary(
  form: Pick<TransferForm, 'name' | 'paymentMethod' | 'number' | 'phoneCountry'>,
  storeCountry: UemoaCountry | null,
  problems: TransferProblem[],
): { name: string; paymentMethod: ProviderCode; identifier: MobileIdentifier } | undefined {
  // A national number is read in the country chosen beside it, else the store's.
  const country = isUemoaCountry(form.phoneCountry) ? form.phoneCountry : storeCountry;
  if (!form.name) problems.push({ field: 'name', rule: 'required' });
  else if (form.name.length > 255) problems.push({ field: 'name', rule: 'max' });
  const provider = isProviderCode(form.paymentMethod) ? form.paymentMethod : undefined;
  if (!provider) problems.push({ field: 'paymentMethod', rule: 'required' });
  const number = form.number ? readZoneNumber(form.number, country ?? undefined) : undefined;
  if (!form.number) problems.push({ field: 'number', rule: 'required' });
  else if (!number) problems.push({ field: 'number', rule: 'format' });
  else if (provider && !providerServes(provider, number.country)) {
    problems.push({ field: 'paymentMethod', rule: 'provider_country', provider, country: number.country });
  }
  if (
    !form.name ||
    form.name.length > 255 ||
    !provider ||
    !number ||
    !providerServes(provider, number.country)
  ) {
    return undefined;
  }
  return { name: form.name, paymentMethod: provider, identifier: { number: number.e164 } };
}

/** The API's body for the draft: the same operation, the same rules. */
const bodyOf = (draft: TransferDraft): CreateTransferBody => ({
  storeId: draft.store.id,
  amountCents: draft.amountCents,
  currency: draft.store.currency,
  description: draft.description || undefined,
  reference: undefined,
  beneficiary: draft.beneficiary,
});

/** What a step-up code confirms: this member, this transfer's details, this confirm form's key. */
const bindingOf = (member: ActingMember, draft: TransferDraft, idempotencyKey: string) =>
  stepUpBinding({
    businessId: member.businessId,
    memberId: member.memberId,
    key: idempotencyKey,
    body: bodyOf(draft),
  });

export type StepUpStart =
  | { outcome: 'sent'; attemptId: string; phone: string }
  | { outcome: 'limited' }
  | { outcome: 'no_phone' };

/** The member's own phone, where step-up codes go. */
export const memberPhone = async (member: ActingMember) =>
  (await getMember(member.businessId, member.memberId))?.phone;

/**
 * What the check step needs: the confirm form's key (the API's idempotency makes its second post
 * the first one's answer) and, above the threshold, the code sent for it.
 */
export async function confirmStepFor(
  member: ActingMember,
  draft: TransferDraft,
  input: { sourceIp: string; language: Language },
): Promise<{ idempotencyKey: string; started?: StepUpStart }> {
  const idempotencyKey = randomUUID();
  if (!draft.needsStepUp) return { idempotencyKey };
  return { idempotencyKey, started: await startStepUp(member, draft, idempotencyKey, input) };
}

/** Sends the step-up code for the draft to the member's own phone. */
export async function startStepUp(
  member: ActingMember,
  draft: TransferDraft,
  idempotencyKey: string,
  input: { sourceIp: string; language: Language },
): Promise<StepUpStart> {
  const phone = await memberPhone(member);
  if (!phone) return { outcome: 'no_phone' };
  const sent = await requestStepUpCode({
    phone,
    binding: bindingOf(member, draft, idempotencyKey),
    purpose: `${formatAmount(draft.amountCents, draft.store.currency)} ${input.language === 'fr' ? 'à' : 'to'} ${draft.beneficiaryName}`,
    address: input.sourceIp,
    language: input.language,
  });
  return sent.outcome === 'sent' ? { ...sent, phone } : sent;
}

export type TransferConfirmation =
  | { outcome: 'sent'; transferId: string; status: string }
  | { outcome: 'code_wrong'; triesLeft: number }
  | { outcome: 'code_malformed' }
  | { outcome: 'code_ended' };

/**
 * Posts the checked draft through the API's operation, once per key: a second post of the same
 * confirm form (a double tap, a replay) gets the first answer and moves no more money; the same key
 * with other details is refused (422 idempotency_key_reused). Above the threshold the code is
 * checked inside, so a replay needs no code and a wrong code leaves no record to replay.
 */
/**
 * The API's idempotency (`idempotent` of shared/http/idempotency.ts), handed in by the entry file:
 * operations know nothing of HTTP.
 */
export type Idempotently = (
  scope: { operation: string; businessId: string; key: string; payload: unknown; context: Context },
  operation: () => Promise<unknown>,
) => Promise<{ text: string }>;

export async function confirmTransfer(
  idempotently: Idempotently,
  member: ActingMember,
  draft: TransferDraft,
  input: {
    idempotencyKey: string;
    attemptId: string;
    code: string;
    sourceIp: string;
    baseUrl: string;
    context: Context;
  },
): Promise<TransferConfirmation> {
  const body = bodyOf(draft);
  let refused: TransferConfirmation | undefined;
  const answer = await idempotently(
    {
      operation: 'dashboardCreateTransfer',
      businessId: member.businessId,
      key: input.idempotencyKey,
      payload: { memberId: member.memberId, body },
      context: input.context,
    },
    async () => {
      if (draft.needsStepUp) {
        const checked = await checkStepUpCode(member, {
          attemptId: input.attemptId,
          binding: bindingOf(member, draft, input.idempotencyKey),
          code: input.code,
          sourceIp: input.sourceIp,
        });
        if (checked.outcome !== 'confirmed') {
          refused =
            checked.outcome === 'wrong'
              ? { outcome: 'code_wrong', triesLeft: checked.triesLeft }
              : checked.outcome === 'malformed'
                ? { outcome: 'code_malformed' }
                : { outcome: 'code_ended' };
          // Thrown so that the idempotency record is dropped: a retry with the right code runs again.
          throw new StepUpRefused();
        }
      }
      const transfer = await createTransferFor(callerForMember(member), body, input.baseUrl, {
        ...(draft.payoutAccountId ? { payoutAccountId: draft.payoutAccountId } : {}),
      });
      await recordAudit(member, {
        action: draft.payoutAccountId ? 'withdrawal_made' : 'transfer_made',
        subjectId: transfer.id,
        detail: `${formatAmount(transfer.amountCents, transfer.currency)} → ${transfer.beneficiary}`,
        sourceIp: input.sourceIp,
      });
      return { transferId: transfer.id, status: transfer.status };
    },
  ).catch((error: unknown) => {
    if (error instanceof StepUpRefused && refused) return undefined;
    throw error;
  });
  if (!answer) return refused ?? { outcome: 'code_ended' };
  const sent = JSON.parse(answer.text) as { transferId: string; status: string };
  return { outcome: 'sent', ...sent };
}

class StepUpRefused extends Error {}

/** The owner's new threshold, in francs as typed; undefined when it is not an amount. */
export async function setStepUpThreshold(
  member: ActingMember,
  typed: string,
  sourceIp: string,
): Promise<Cents | undefined> {
  const cents = readFrancs(typed);
  if (cents === undefined || cents > maxAmountCents) return undefined;
  await putTransferSettings({
    businessId: member.businessId,
    stepUpThresholdCents: cents,
    updatedAt: new Date().toISOString(),
    updatedByMemberId: member.memberId,
  });
  await recordAudit(member, {
    action: 'step_up_threshold_changed',
    detail: formatAmount(cents),
    sourceIp,
  });
  return cents;
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The business's transfers of the last 30 days among its latest 100 transactions, newest first:
 * the API's transaction list (the same lines, statuses and amounts), kept to type `transfer`. The
 * whole history is the transaction list's, filtered by type.
 */
export async function recentTransfers(member: ActingMember) {
  const caller = callerForMember(member);
  const now = Date.now();
  const [listed, stores] = await Promise.all([
    transactionsOf(caller, {
      startDate: new Date(now - 30 * dayMs).toISOString().slice(0, 10),
      endDate: new Date(now).toISOString().slice(0, 10),
      page: 1,
      limit: 100,
    }),
    storesOf(caller),
  ]);
  const byId = new Map(stores.map((store) => [store.id, store]));
  return listed.data
    .filter((line) => line.type === 'transfer')
    .map((line) => ({
      id: line.transactionDetails?.id ?? line.id,
      status: line.status,
      amountCents: line.amount.amount,
      feeCents: line.fees.amount,
      currency: line.currency,
      counterpartLabel: line.counterpartLabel,
      counterpartIdentifier: line.counterpartIdentifier,
      storeName: byId.get(line.storeId)?.name ?? '',
      createdAt: line.createdAt,
      store: byId.get(line.storeId),
    }));
}

/** A transfer of the business just sent, for the notice after the post; undefined if not the business's. */
export async function sentTransfer(member: ActingMember, id: string | undefined) {
  if (!id) return undefined;
  try {
    return await transferOf(callerForMember(member), id);
  } catch (error) {
    if (error instanceof TransferNotFound) return undefined;
    throw error;
  }
}
