import { randomUUID } from 'node:crypto';
import { type AuditActor, auditEntryWrite, newAuditEntry } from '#shared/data/audit-entry.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { getOrCreateAccount, smsCreditWrites } from '#shared/data/message.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { transactionRecordWrites } from '#shared/data/transaction-record.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { smsPurchasePostings } from '#shared/domain/ledger.ts';
import type { Cents } from '#shared/domain/money.ts';
import { count } from '#shared/metrics.ts';
import { storeForCollection } from '#shared/operations/stores.ts';

/**
 * SMS credit bought from a store's available balance (issue 34, item 4): a pack of segments at the
 * stage's price per segment, paid in one transaction that posts the ledger entry (the store's
 * wallet to `platform:sms`, refused whole when the available balance cannot pay), adds the
 * segments to the business's SMS balance, writes the store's transaction-list line (`sms_credit`)
 * and the audit entry. Nothing is written when any of it fails.
 */

/** The price of one segment, in cents: the stage's `SMS_SEGMENT_PRICE_CENTS`, 25 F CFA by default. */
export function smsSegmentPriceCents(environment: NodeJS.ProcessEnv = process.env): Cents {
  const value = Number(environment.SMS_SEGMENT_PRICE_CENTS);
  return environment.SMS_SEGMENT_PRICE_CENTS && Number.isInteger(value) && value > 0 && value % 100 === 0
    ? value
    : 2500;
}

/** The packs the dashboard offers; the API takes any number of segments in the same range. */
export const smsPacks = [100, 500, 1000, 5000] as const;
export const minSmsPurchase = 100;
export const maxSmsPurchase = 100_000;

export interface SmsPurchase {
  id: string;
  storeId: string;
  segments: number;
  priceCents: Cents;
  currency: string;
  /** The business's SMS balance after the purchase. */
  smsBalance: number;
  createdAt: string;
}

export async function buySmsCredit(
  caller: Caller,
  /** `id`: the purchase's, given by a caller that retries it (its ledger entry then posts once). */
  input: { storeId: string; segments: number; id?: string },
  audit: { actor: AuditActor; sourceIp: string },
): Promise<SmsPurchase> {
  const store = await storeForCollection(caller, input.storeId, undefined);
  const id = input.id ?? randomUUID();
  const createdAt = new Date().toISOString();
  const priceCents = input.segments * smsSegmentPriceCents();
  await transactWrite([
    ...ledgerWrites({
      id: `sms:${id}`,
      kind: 'sms',
      cause: `sms credit ${id}: ${input.segments} segments`,
      createdAt,
      postings: smsPurchasePostings({ businessId: store.businessId, storeId: store.id, price: priceCents }),
    }),
    ...smsCreditWrites(store.businessId, input.segments, `purchase:${id}`),
    ...transactionRecordWrites({
      id,
      businessId: store.businessId,
      storeId: store.id,
      type: 'sms_credit',
      status: 'success',
      amount: { amount: priceCents, currency: store.currency },
      fees: { amount: 0, currency: store.currency },
      currency: store.currency,
      paymentMethod: 'svc',
      counterpartLabel: 'Partner Payments',
      counterpartIdentifier: `${input.segments} SMS`,
      description: `${input.segments} SMS`,
      reference: id,
      createdAt,
      transactionDetails: { id, reference: id },
    }),
    auditEntryWrite(
      newAuditEntry({
        businessId: store.businessId,
        at: createdAt,
        action: 'sms_credit_bought',
        actor: audit.actor,
        subjectId: id,
        detail: `${input.segments} SMS · ${store.name}${'memberId' in audit.actor ? '' : ` · API key ${caller.keyId}`}`,
        sourceIp: audit.sourceIp,
      }),
    ),
  ]);
  count('SmsCreditBought');
  const account = await getOrCreateAccount(store.businessId, true);
  return {
    id,
    storeId: store.id,
    segments: input.segments,
    priceCents,
    currency: store.currency,
    smsBalance: account.smsBalance,
    createdAt,
  };
}

/** The API's answer. */
export const smsPurchaseResponse = (purchase: SmsPurchase) => ({
  id: purchase.id,
  storeId: purchase.storeId,
  segments: purchase.segments,
  price: { amount: purchase.priceCents, currency: purchase.currency },
  smsBalance: purchase.smsBalance,
  createdAt: purchase.createdAt,
});
