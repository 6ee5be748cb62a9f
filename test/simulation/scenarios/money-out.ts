import { randomUUID } from 'node:crypto';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import { createTransferBody } from '#shared/api/transfers.ts';
import { listMessages, platformBusinessId } from '#shared/data/message.ts';
import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { refundableOf } from '#shared/data/refund.ts';
import { AlreadyPosted } from '#shared/errors/ledger.ts';
import { PayoutAccountExists } from '#shared/errors/payout-accounts.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { cancelPayment, confirmRefund } from '#shared/operations/dashboard-payment-actions.ts';
import { transactionDetailOf } from '#shared/operations/dashboard-transactions.ts';
import { checkTransferForm, confirmTransfer, startStepUp } from '#shared/operations/dashboard-transfers.ts';
import { addPayoutAccount, payoutAccountsOf, withdraw } from '#shared/operations/payout-accounts.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import type { PayoutOutcome } from '#shared/providers/port.ts';
import { getSandboxPayout, settleSandboxPayout } from '#shared/providers/sandbox.ts';
import { settlePayout } from '#shared/settlement/payouts.ts';
import { truthfully } from '#test/simulation/network.ts';
import { decidePawapayPayout, pawapayPayoutCallback } from '#test/simulation/pawapay.ts';
import { type Operation, removeOnce, type World } from '#test/simulation/world.ts';

/**
 * Money going out: store credits, transfers through the API and through the dashboard (above the
 * owner's threshold with the SMS code sent to the owner's phone), refunds of paid payments (some
 * racing for one payment, some asked on the dashboard), the merchant cancelling from the dashboard;
 * providers deciding payouts and their callbacks, sometimes twice.
 */

export async function creditOnce(world: World, credit: { entryId: string; amount: number; done: boolean }) {
  try {
    await creditStore(world.m.store.id, credit.amount, credit.entryId);
  } catch (error) {
    // Posted by an earlier attempt whose answer was lost.
    if (!(error instanceof AlreadyPosted)) throw error;
  }
  credit.done = true;
}

/** A provider's callback about a payout, as its verified callback hands it to the service. */
export async function deliverPayoutCallback(callback: { id: string; outcome: PayoutOutcome }) {
  // pawaPay's, through the adapter's status check (null: refused, which it must not be here).
  const viaPawapay = await pawapayPayoutCallback(callback.id);
  if (viaPawapay !== undefined) {
    if (viaPawapay)
      await settlePayout({
        payoutId: viaPawapay.transferId,
        providerReference: viaPawapay.providerReference,
        outcome: viaPawapay.outcome,
      });
    return;
  }
  const payout = await truthfully(() => getSandboxPayout(callback.id));
  if (!payout) return;
  await settlePayout({
    payoutId: callback.id,
    providerReference: payout.providerReference,
    outcome: callback.outcome,
  });
}

/** The provider's decision on a payout: four in five pay. Answers whether it was open. */
export async function decidePayout(world: World, id: string): Promise<boolean> {
  const outcome: PayoutOutcome = world.random.chance(0.8) ? 'success' : 'declined';
  const atPawapay = await decidePawapayPayout(id, outcome);
  if (atPawapay !== undefined) {
    if (atPawapay) world.payoutCallbacks.push({ id, outcome });
    return atPawapay;
  }
  const settled = await truthfully(() => settleSandboxPayout(id, outcome, false));
  if (settled) world.payoutCallbacks.push({ id, outcome });
  return settled !== undefined;
}

/** A paid payment of the simulation with something left to refund, if one of a few picked is. */
async function paidPayment(world: World): Promise<PaymentRequest | undefined> {
  for (let tries = 0; tries < 4 && world.requests.length > 0; tries++) {
    const request = await findPaymentRequest(world.random.pick(world.requests), true);
    if (request?.status === 'success' && !request.escrow && (await refundableOf(request)) >= 100)
      return request;
  }
  return undefined;
}

const askRefund = async (world: World, request: PaymentRequest, amountCents: number | undefined) => {
  const refund = await createRefundFor(
    world.m.caller,
    { paymentRequestId: request.id, amountCents, reference: `sim-refund-${randomUUID()}` },
    world.baseUrl,
  );
  world.payouts.add(refund.id);
};

/** Up to `cents`, in whole francs (XOF has no smaller unit; the API refuses any other). */
const wholeFrancsUpTo = (world: World, cents: number) =>
  world.random.int(1, Math.max(1, Math.floor(cents / 100))) * 100;

/** MTN MoMo through the sandbox, Moov Money through pawaPay. */
const payoutMethods = ['mtn', 'moov'] as const;

const transferTo = (world: World, amountCents: number) =>
  createTransferBody.parse({
    storeId: world.m.store.id,
    amountCents,
    currency: 'XOF',
    name: 'Fournisseur',
    paymentMethod: world.random.pick(payoutMethods),
    identifier: { number: world.payerPhone },
  });

/** The business's own account, registered by the first withdrawal (no cooling on the laptop). */
async function payoutAccountOf(world: World): Promise<string> {
  if (world.payoutAccountId) return world.payoutAccountId;
  const identifier = { number: world.payerPhone };
  const known = (await payoutAccountsOf(world.m.business.id))[0];
  const account =
    known ??
    (await addPayoutAccount(
      world.m.business.id,
      { paymentMethod: world.random.pick(payoutMethods), identifier, holder: 'Propriétaire' },
      { keyId: world.m.caller.keyId },
      '127.0.0.1',
    ).catch(async (error: unknown) => {
      // Registered by a try whose answer was lost, or by a withdrawal racing this one.
      if (!(error instanceof PayoutAccountExists)) throw error;
      return (await payoutAccountsOf(world.m.business.id))[0];
    }));
  if (!account) throw new Error('no payout account after registering one');
  world.payoutAccountId = account.id;
  return account.id;
}

export const moneyOutOperations: Operation[] = [
  {
    weight: 2,
    name: 'a withdrawal to the business’s own account',
    async run(world) {
      const transfer = await withdraw(
        world.m.caller,
        {
          storeId: world.m.store.id,
          payoutAccountId: await payoutAccountOf(world),
          amountCents: wholeFrancsUpTo(world, 50_000),
        },
        world.baseUrl,
      );
      world.payouts.add(transfer.id);
      world.counts.withdrawals++;
    },
  },
  {
    weight: 5,
    name: 'a store credit',
    async run(world) {
      const credit = world.credits.find((c) => !c.done) ?? {
        entryId: `credit:${randomUUID()}`,
        amount: world.random.int(1_000, 300_000),
        done: false,
      };
      if (!world.credits.includes(credit)) world.credits.push(credit);
      // A retried credit carries its entry id: it posts once however often it is sent.
      await creditOnce(world, credit);
    },
  },
  {
    weight: 7,
    name: 'a transfer',
    async run(world) {
      const transfer = await createTransferFor(
        world.m.caller,
        transferTo(world, wholeFrancsUpTo(world, 100_000)),
        world.baseUrl,
      );
      world.payouts.add(transfer.id);
    },
  },
  {
    weight: 3,
    name: 'a transfer from the dashboard, with the SMS code above the threshold',
    async run(world) {
      const amount = world.random.int(1, 2_000);
      const check = await checkTransferForm(world.member, {
        storeId: world.m.store.id,
        to: 'new',
        contactId: '',
        destinationStoreId: '',
        name: 'Fournisseur',
        paymentMethod: world.random.pick(payoutMethods),
        number: world.payerPhone,
        amount: String(amount),
        description: '',
      });
      if (!('draft' in check)) return;
      const { draft } = check;
      const key = randomUUID();
      let attemptId = '';
      let code = '';
      if (draft.needsStepUp) {
        const started = await startStepUp(world.member, draft, key, {
          sourceIp: '127.0.0.1',
          language: 'fr',
        });
        if (started.outcome !== 'sent') return;
        attemptId = started.attemptId;
        // The owner reads the code on its phone: the platform's SMS, by its reference.
        const { items } = await truthfully(() => listMessages(platformBusinessId, { page: 1, limit: 1_000 }));
        const text = items.find((message) => message.reference === `step-up:${attemptId}`)?.body ?? '';
        code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
        world.counts.stepUpTransfers++;
      }
      const confirm = () =>
        confirmTransfer(idempotent, world.member, draft, {
          idempotencyKey: key,
          attemptId,
          code,
          sourceIp: '127.0.0.1',
          baseUrl: world.baseUrl,
          context: lambdaContext('dashboard', 30_000),
        });
      const sent = await confirm();
      // A double tap: the same confirmation again moves no more money.
      if (world.random.chance(0.3)) await confirm();
      if (sent.outcome === 'sent') world.payouts.add(sent.transferId);
      world.counts.dashboardActions++;
    },
  },
  {
    weight: 8,
    name: 'a provider decides a payout',
    async run(world) {
      // A transfer's, a refund's, an orphan's or an escrow's refund.
      if (world.payouts.size === 0) return;
      await decidePayout(world, world.random.pick([...world.payouts]));
    },
  },
  {
    weight: 6,
    name: 'a payout callback delivered',
    async run(world) {
      if (world.payoutCallbacks.length === 0) return;
      const callback = world.random.pick(world.payoutCallbacks);
      await deliverPayoutCallback(callback);
      // Acknowledged; a duplicate may still come later.
      if (world.random.chance(0.7)) removeOnce(world.payoutCallbacks, callback);
    },
  },
  {
    weight: 5,
    name: 'a refund asked',
    async run(world) {
      const request = await paidPayment(world);
      if (!request) return;
      const amount = world.random.chance(0.4) ? undefined : wholeFrancsUpTo(world, request.amountCents);
      await askRefund(world, request, amount);
    },
  },
  {
    weight: 2,
    name: 'partial refunds racing for one payment',
    async run(world) {
      const request = await paidPayment(world);
      if (!request) return;
      const parts = Array.from({ length: world.random.int(2, 4) }, () =>
        wholeFrancsUpTo(world, request.amountCents / 2),
      );
      const results = await Promise.allSettled(parts.map((amount) => askRefund(world, request, amount)));
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw (failure as PromiseRejectedResult).reason;
    },
  },
  {
    weight: 2,
    name: 'a refund confirmed on the dashboard',
    async run(world) {
      const request = await paidPayment(world);
      if (!request) return;
      const detail = await transactionDetailOf(world.member, request.id);
      const amount = wholeFrancsUpTo(world, detail.refundableCents);
      const form = { amountCents: String(amount), key: randomUUID() };
      const request2 = { baseUrl: world.baseUrl, sourceIp: '127.0.0.1' };
      const id = await confirmRefund(world.member, detail, form, request2);
      if (id) world.payouts.add(id);
      world.counts.dashboardActions++;
    },
  },
  {
    weight: 1,
    name: 'a payment request cancelled on the dashboard',
    async run(world) {
      const id = world.requests.length > 0 ? world.random.pick(world.requests) : undefined;
      if (!id) return;
      await cancelPayment(world.member, await transactionDetailOf(world.member, id), '127.0.0.1');
      world.counts.dashboardActions++;
    },
  },
];
