import type { LedgerBooks } from '#shared/audit/ledger-audit.ts';
import { findEscrow } from '#shared/data/escrow.ts';
import { listMessages, type Message } from '#shared/data/message.ts';
import { orphanIdOf } from '#shared/data/orphan-collection.ts';
import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { getTransfer } from '#shared/data/transfer.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { deliveryIdFor, getDelivery } from '#shared/data/webhook-delivery.ts';
import { defaultFeeSchedule, defaultPayoutFeeSchedule, splitFee } from '#shared/domain/fees.ts';
import { accounts } from '#shared/domain/ledger.ts';
import { endReasons } from '#shared/domain/payment-lifetime.ts';
import { eventOfChange } from '#shared/events/stream-jobs.ts';
import { maxAttempts } from '#shared/operations/webhook-send.ts';
import { type SandboxSmsBehaviour, sandboxSmsBehaviour } from '#shared/sms/sandbox.ts';
import { payoutTruth } from '#test/simulation/pawapay.ts';
import type { Receiver } from '#test/simulation/receiver.ts';
import { refundModel } from '#test/simulation/refund-model.ts';
import type { StreamRecord } from '#test/simulation/table-watch.ts';
import type { World } from '#test/simulation/world.ts';
import { dayTotalsMismatches } from '#test/support/day-totals-check.ts';

/**
 * The end of a run: with faults off and everything settled, what the providers' own record says
 * must be what the books say (each balance computed here without reading the ledger), every SMS
 * must have ended as its number says and been charged once, every event owed to the merchant's
 * endpoint must have reached it in time, and never two attempts of one at once.
 */

/** A webhook's first attempt follows its change within this (the stream, its retries, the queue). */
export const firstAttemptWithinMs = 2 * 60_000;
/** And its last attempt, the schedule's 1, 5 and 25 minutes later, within this of its first. */
export const lastAttemptWithinMs = 35 * 60_000;

export interface Findings {
  mismatches: string[];
  moneyLostOrCreatedCents: number;
  paymentsSucceeded: number;
  orphanCollections: number;
  lateSuccessesRefunded: number;
  paymentRequestsEnded: Record<string, number>;
  escrows: number;
  payoutsPaid: number;
  refunds: number;
  refundsPaid: number;
  sms: {
    recorded: number;
    segmentsCredited: number;
    segmentsCharged: number;
    lostOrCreated: number;
    takenTwice: number;
  };
  webhooks: {
    owed: number;
    delivered: number;
    failedAfterEveryAttempt: number;
    acknowledgedTwice: number;
    attemptedTwiceAtOnce: number;
    /** Simulated ms from a change to its webhook's first attempt: the median and the longest. */
    firstAttemptMedianMs: number;
    firstAttemptMaxMs: number;
  };
}

export interface Before {
  wallet: number;
  escrow: number;
  accounts: Record<string, number>;
}

export async function walletsOf(world: World) {
  const wallets = await listStoreWallets(world.m.business.id, world.m.store.id);
  const of = (kind: string) => wallets.find((wallet) => wallet.kind === kind) ?? { total: 0, blocked: 0 };
  return { operating: of('operating'), escrow: of('escrow') };
}

export async function judge(
  world: World,
  books: LedgerBooks,
  before: Before,
  records: readonly StreamRecord[],
  receiver: Receiver,
  smsTakes: Map<string, number>,
  smsFailedAttempts: Set<string>,
): Promise<Findings> {
  const expected = new Map<string, number>();
  const add = (account: string, amount: number) =>
    expected.set(account, (expected.get(account) ?? 0) + amount);
  const findings: Findings = {
    mismatches: [],
    moneyLostOrCreatedCents: 0,
    paymentsSucceeded: 0,
    orphanCollections: 0,
    lateSuccessesRefunded: 0,
    paymentRequestsEnded: Object.fromEntries(endReasons.map((reason) => [reason, 0])),
    escrows: 0,
    payoutsPaid: 0,
    refunds: 0,
    refundsPaid: 0,
    sms: { recorded: 0, segmentsCredited: 0, segmentsCharged: 0, lostOrCreated: 0, takenTwice: 0 },
    webhooks: {
      owed: 0,
      delivered: 0,
      failedAfterEveryAttempt: 0,
      acknowledgedTwice: 0,
      attemptedTwiceAtOnce: receiver.overlapping.length,
      firstAttemptMedianMs: 0,
      firstAttemptMaxMs: 0,
    },
  };
  const mismatch = (text: string) => findings.mismatches.push(text);

  // The model: balances from what the providers did, not from the ledger.
  let walletTotal = before.wallet;
  let escrowTotal = before.escrow;
  for (const credit of world.credits) {
    walletTotal += credit.amount;
    add(accounts.sandboxFunding, -credit.amount);
  }
  const requests = new Map<string, PaymentRequest | undefined>();
  for (const id of new Set([...world.requests, ...[...world.collections.values()].map((c) => c.requestId)]))
    requests.set(id, await findPaymentRequest(id, true));
  for (const request of requests.values()) {
    const reason = request?.status === 'error' ? request.errorReason : null;
    if (reason && reason in findings.paymentRequestsEnded)
      findings.paymentRequestsEnded[reason] = (findings.paymentRequestsEnded[reason] ?? 0) + 1;
    if (request?.status === 'pending' && world.shortLives.has(request.id))
      mismatch(`payment request ${request.id}: past its expiry and grace, yet pending`);
  }
  for (const collection of world.collections.values()) {
    if (collection.outcome !== 'success') continue;
    add(accounts.providerClearing(collection.provider), -collection.amount);
    const request = requests.get(collection.requestId);
    if (request?.providerReference === collection.reference) {
      if (request.status !== 'success')
        mismatch(`request ${request.id}: its collection succeeded, yet it is ${request.status}`);
      const { fee, net } = splitFee(collection.amount, defaultFeeSchedule[collection.provider]);
      findings.paymentsSucceeded++;
      if (request.escrow) {
        // Held, released to the store, or refunded to the payer (fee included) by a paid payout.
        const escrow = await findEscrow(request.escrow.id, true);
        const refund = escrow?.refundTransferId ? await payoutTruth(escrow.refundTransferId) : undefined;
        findings.escrows++;
        if (refund?.state === 'success') {
          if (escrow?.status !== 'refunded')
            mismatch(`escrow ${escrow?.id}: its refund was paid, yet it is ${escrow?.status}`);
          add(accounts.payoutClearing(refund.method), refund.amountCents);
        } else if (escrow?.status === 'released') {
          walletTotal += net;
          add(accounts.platformFees, fee);
        } else {
          if (escrow?.status !== 'held')
            mismatch(`escrow ${escrow?.id}: paid, never refunded nor released, yet ${escrow?.status}`);
          escrowTotal += net;
          add(accounts.platformFees, fee);
        }
        continue;
      }
      walletTotal += net;
      add(accounts.platformFees, fee);
    } else {
      findings.orphanCollections++;
      if (request && ['expired', 'cancelled', 'abandoned'].includes(request.errorReason ?? ''))
        findings.lateSuccessesRefunded++;
      const refund = await payoutTruth(orphanIdOf(collection.provider, collection.reference));
      if (refund?.state === 'success') {
        add(accounts.payoutClearing(collection.provider), collection.amount);
        findings.payoutsPaid++;
      } else add(accounts.payerRefunds, collection.amount);
    }
  }
  // SMS credit bought: the store paid the service its price (issue 34).
  for (const purchase of world.sms.purchases) {
    if (purchase.state !== 'bought') continue;
    walletTotal -= purchase.priceCents;
    add(accounts.platformSms, purchase.priceCents);
  }
  const refunds = await refundModel(requests.values(), add);
  walletTotal -= refunds.walletOut;
  let blocked = refunds.blocked;
  findings.refunds = refunds.refunds;
  findings.refundsPaid = refunds.refundsPaid;
  findings.mismatches.push(...refunds.mismatches);
  for (const id of world.payouts) {
    const transfer = await getTransfer(world.m.business.id, id, true);
    // An escrow's refund is counted with its escrow; a refund of a payment, with its payment.
    if (!transfer || transfer.escrow) continue;
    const payout = await payoutTruth(id);
    const method = transfer.paymentMethod as 'mtn' | 'moov';
    const fee = splitFee(transfer.amountCents, defaultPayoutFeeSchedule[method]).fee;
    if (payout?.state === 'success') {
      walletTotal -= transfer.amountCents + fee;
      add(accounts.payoutClearing(method), transfer.amountCents);
      add(accounts.platformFees, fee);
      findings.payoutsPaid++;
      if (transfer.status !== 'success') mismatch(`transfer ${id}: paid out, yet ${transfer.status}`);
    } else if (payout?.state === 'pending') blocked += transfer.amountCents + fee;
    else if (transfer.status === 'success') mismatch(`transfer ${id}: never paid, yet success`);
  }

  const actual = await walletsOf(world);
  const actualAccounts = books.report().accountBalances;
  const compare = (name: string, value: number, model: number) => {
    if (value === model) return;
    mismatch(`${name}: ${value}, the model says ${model}`);
    findings.moneyLostOrCreatedCents += Math.abs(value - model);
  };
  compare('store wallet total', actual.operating.total, walletTotal);
  compare('store wallet blocked', actual.operating.blocked, blocked);
  compare('store escrow wallet total', actual.escrow.total, escrowTotal);
  compare('store escrow wallet blocked', actual.escrow.blocked, 0);
  for (const account of new Set([...expected.keys(), ...Object.keys(actualAccounts)]))
    compare(
      account,
      (actualAccounts[account] ?? 0) - (before.accounts[account] ?? 0),
      expected.get(account) ?? 0,
    );

  await judgeSms(world, books, findings, smsTakes, smsFailedAttempts);
  await judgeWebhooks(world, records, receiver, findings);
  // The home page's day totals, kept as the money moved, agree with the lines however it moved.
  findings.mismatches.push(...(await dayTotalsMismatches(world.m.business.id, world.m.store.id)));
  return findings;
}

/** What is wrong with a message's end, for the number it went to; undefined when nothing. */
function smsOutcomeProblem(message: Message, behaviour: SandboxSmsBehaviour): string | undefined {
  const refunded = message.refundedAt !== undefined;
  const beforeCarrier = ['invalid_number', 'provider_unavailable'];
  if (refunded !== (message.status === 'failed' && beforeCarrier.includes(message.failedReason ?? '')))
    return `${message.status} (${message.failedReason}), ${refunded ? '' : 'not '}given back`;
  if (refunded)
    return behaviour === 'invalid_number' || message.failedReason !== 'invalid_number'
      ? undefined
      : 'refused as an invalid number';
  const expected = {
    delivered: 'delivered',
    carrier_rejected: 'failed',
    never_confirmed: 'sent',
    invalid_number: 'none',
  }[behaviour];
  return message.status === expected ? undefined : `ended ${message.status}, expected ${expected}`;
}

/**
 * The SMS model: the balance is the top-ups less the segments (counted here from the bodies) of
 * the messages that still count; one message per reference, charged once, given back only if it
 * failed before the carrier took it, ending as its number says, taken by the gateway once unless
 * an attempt failed after it took it.
 */
async function judgeSms(
  world: World,
  books: LedgerBooks,
  findings: Findings,
  takes: Map<string, number>,
  failedAttempts: Set<string>,
): Promise<void> {
  const { items } = await listMessages(world.m.business.id, { page: 1, limit: 1_000_000 });
  let model = 0;
  for (const credit of [...world.sms.credits, ...world.sms.purchases.filter((p) => p.state === 'bought')]) {
    model += credit.segments;
    findings.sms.segmentsCredited += credit.segments;
  }
  const seen = new Set<string>();
  for (const message of items) {
    const asked = world.sms.asked.get(message.reference);
    if (!asked) {
      findings.mismatches.push(`sms ${message.id}: recorded, yet nobody sent it`);
      continue;
    }
    if (seen.has(message.reference))
      findings.mismatches.push(`sms reference ${message.reference}: recorded twice`);
    seen.add(message.reference);
    findings.sms.recorded++;
    if (!message.charged || message.segments !== asked.segments)
      findings.mismatches.push(
        `sms ${message.id}: charged ${message.charged ? message.segments : 0}, it has ${asked.segments} segments`,
      );
    if (message.refundedAt === undefined) {
      model -= asked.segments;
      findings.sms.segmentsCharged += asked.segments;
    }
    const problem = smsOutcomeProblem(message, sandboxSmsBehaviour(asked.to));
    if (problem) findings.mismatches.push(`sms ${message.id} to ${asked.to}: ${problem}`);
    const taken = takes.get(message.id) ?? 0;
    if (taken > 1) {
      findings.sms.takenTwice++;
      if (!failedAttempts.has(message.id))
        findings.mismatches.push(`sms ${message.id}: the gateway took it ${taken} times, no attempt failed`);
    }
  }
  const balance = books.smsBalanceOf(world.m.business.id);
  if (balance !== model) {
    findings.mismatches.push(`sms balance: ${balance}, the model says ${model}`);
    findings.sms.lostOrCreated += Math.abs(balance - model);
  }
}

/**
 * Every event the table's changes owed the merchant's endpoint (each read off its stream record as
 * the consumer reads it) reached it, its first attempt within `firstAttemptWithinMs` of its change
 * and its last within `lastAttemptWithinMs` of its first; or failed after every attempt was refused.
 * Never were two attempts of one body under way at once.
 */
async function judgeWebhooks(
  world: World,
  records: readonly StreamRecord[],
  receiver: Receiver,
  findings: Findings,
) {
  const firsts: number[] = [];
  const counted = new Set<string>();
  for (const record of records) {
    const event = await eventOfChange({
      eventName: record.eventName,
      oldImage: record.oldImage,
      newImage: record.newImage,
    });
    if (!event || event.businessId !== world.m.business.id || event.createdAt < world.subscription.createdAt)
      continue;
    if (counted.has(event.id)) continue;
    counted.add(event.id);
    findings.webhooks.owed++;
    const delivery = await getDelivery(event.businessId, deliveryIdFor(event, world.subscription.id), true);
    const attempts = delivery?.attempts ?? [];
    if (
      delivery?.status === 'failed' &&
      attempts.length === maxAttempts &&
      attempts.every((a) => a.status === 500)
    ) {
      findings.webhooks.failedAfterEveryAttempt++;
    } else if (delivery?.status !== 'delivered') {
      findings.mismatches.push(`${event.id}: its webhook is ${delivery?.status ?? 'missing'}`);
      continue;
    } else findings.webhooks.delivered++;
    const first = Date.parse(attempts[0]?.at ?? '') - record.at;
    firsts.push(first);
    if (!(first <= firstAttemptWithinMs))
      findings.mismatches.push(`${event.id}: first attempt ${first} ms after its change`);
    const last = Date.parse(attempts.at(-1)?.at ?? '') - Date.parse(attempts[0]?.at ?? '');
    if (last > lastAttemptWithinMs)
      findings.mismatches.push(`${event.id}: last attempt ${last} ms after its first`);
    const acks = receiver.acknowledged.get(delivery.body) ?? 0;
    if (acks > 1) findings.webhooks.acknowledgedTwice++;
    if (delivery.status === 'delivered' && acks === 0)
      findings.mismatches.push(`${event.id}: recorded delivered, never acknowledged`);
  }
  for (const body of receiver.overlapping)
    findings.mismatches.push(`two attempts at once of ${body.slice(0, 80)}`);
  firsts.sort((a, b) => a - b);
  findings.webhooks.firstAttemptMedianMs = firsts[Math.floor(firsts.length / 2)] ?? 0;
  findings.webhooks.firstAttemptMaxMs = firsts.at(-1) ?? 0;
}
