import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { entryKey } from '#shared/data/ledger.ts';
import { countSegments } from '#shared/domain/sms-segments.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { InsufficientSmsBalance } from '#shared/errors/messages.ts';
import { creditSmsBalance, sendMessageFor } from '#shared/operations/messages.ts';
import { buySmsCredit, smsSegmentPriceCents } from '#shared/operations/sms-credit.ts';
import { truthfully } from '#test/simulation/network.ts';
import type { Operation, World } from '#test/simulation/world.ts';

/**
 * SMS on the business's balance: sends (some retried with their reference after a lost answer,
 * some racing for the last segments), top-ups, and credit bought from the store's balance. The sender worker, the gateway's delivery
 * reports and the stream that queues each message run around them (background.ts).
 */

// The sandbox SMS gateway's numbers: delivered, refused before the carrier, rejected by the carrier,
// never confirmed, and an ordinary number (delivered).
const smsNumbers = ['+2250700000001', '+2250700000002', '+2250700000003', '+2250700000004', '+2250707123457'];
const smsBodies = [
  'Votre code est {ref}',
  `Commande {ref} livrée. ${'Merci de votre confiance. '.repeat(6)}`,
  'Reçu {ref} ✓ merci 🙏',
  `Rappel {ref}: ${'votre paiement est attendu avant vendredi. '.repeat(9)}`,
];

function askSms(world: World): string {
  const reference = `sim-sms-${randomUUID()}`;
  const body = world.random.pick(smsBodies).replace('{ref}', reference.slice(-8));
  world.sms.asked.set(reference, {
    to: world.random.pick(smsNumbers),
    body,
    segments: countSegments(body).segments,
    answered: false,
  });
  return reference;
}

async function sendOnce(world: World, reference: string): Promise<void> {
  const asked = world.sms.asked.get(reference) as { to: string; body: string; answered: boolean };
  try {
    await sendMessageFor(world.m.caller, { channel: 'sms', to: asked.to, body: asked.body, reference });
    asked.answered = true;
  } catch (error) {
    if (error instanceof InsufficientSmsBalance) {
      world.sms.refusedForBalance++;
      asked.answered = true;
    }
    throw error;
  }
}

export async function creditSmsOnce(
  world: World,
  credit: { entryId: string; segments: number; done: boolean },
) {
  // The same entry id again (a retried top-up) adds nothing.
  await creditSmsBalance(world.m.business.id, credit.segments, credit.entryId);
  credit.done = true;
}

/**
 * SMS credit bought from the store's balance, once: a purchase whose answer was lost is found by
 * its ledger entry before it is asked again, and a store short of it is refused (nothing bought).
 */
export async function buySmsOnce(world: World, purchase: World['sms']['purchases'][number]) {
  const posted = await truthfully(() =>
    documentClient.send(
      new GetCommand({ TableName: tableName(), Key: entryKey(`sms:${purchase.id}`), ConsistentRead: true }),
    ),
  );
  if (posted.Item) {
    purchase.state = 'bought';
    return;
  }
  try {
    await buySmsCredit(
      world.m.caller,
      { storeId: world.m.store.id, segments: purchase.segments, id: purchase.id },
      { actor: {}, sourceIp: '127.0.0.1' },
    );
    purchase.state = 'bought';
    world.counts.smsPurchases++;
  } catch (error) {
    if (!(error instanceof InsufficientBalance)) throw error;
    purchase.state = 'refused';
  }
}

export const messageOperations: Operation[] = [
  {
    weight: 7,
    name: 'an SMS sent',
    async run(world) {
      // Sometimes a client retries a send it got no answer for, with the same reference.
      const unanswered = [...world.sms.asked.entries()].filter(([, asked]) => !asked.answered);
      const reference =
        unanswered.length > 0 && world.random.chance(0.5) ? world.random.pick(unanswered)[0] : askSms(world);
      await sendOnce(world, reference);
    },
  },
  {
    weight: 2,
    name: 'SMS sends racing for the last segments',
    async run(world) {
      const references = Array.from({ length: world.random.int(3, 5) }, () => askSms(world));
      const results = await Promise.allSettled(references.map((reference) => sendOnce(world, reference)));
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw (failure as PromiseRejectedResult).reason;
    },
  },
  {
    weight: 3,
    name: 'an SMS top-up',
    async run(world) {
      const credit = world.sms.credits.find((c) => !c.done) ?? {
        entryId: `sms-credit:${randomUUID()}`,
        segments: world.random.int(2, 30),
        done: false,
      };
      if (!world.sms.credits.includes(credit)) world.sms.credits.push(credit);
      await creditSmsOnce(world, credit);
    },
  },
  {
    weight: 1,
    name: 'SMS credit bought from the store',
    async run(world) {
      const purchase = world.sms.purchases.find((p) => p.state === 'asked') ?? {
        id: randomUUID(),
        segments: world.random.pick([100, 500]),
        priceCents: 0,
        state: 'asked' as const,
      };
      purchase.priceCents = purchase.segments * smsSegmentPriceCents();
      if (!world.sms.purchases.includes(purchase)) world.sms.purchases.push(purchase);
      await buySmsOnce(world, purchase);
    },
  },
];
