import { randomUUID } from 'node:crypto';
import {
  dueEscrows,
  type Escrow,
  escrowTransitionWrite,
  findEscrow,
  getEscrow,
  listEscrows,
  removeDueMarker,
} from '#shared/data/escrow.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { getStore } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { transactionRecordWrites } from '#shared/data/transaction-record.ts';
import { type Transfer, transferCreationWrites } from '#shared/data/transfer.ts';
import { reserveWrite } from '#shared/data/wallet.ts';
import { type Caller, callerSeesStore } from '#shared/domain/caller.ts';
import { type EscrowStatus, heldAmount } from '#shared/domain/escrows.ts';
import { accounts, escrowReleasePostings } from '#shared/domain/ledger.ts';
import {
  EscrowError,
  EscrowMoved,
  EscrowNotFound,
  notHeldError,
  PayerUnknown,
} from '#shared/errors/escrows.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import { dropHoldEnd } from '#shared/operations/escrow-schedules.ts';
import { sendingRecord } from '#shared/operations/transfers.ts';
import { startTransferPayout } from '#shared/settlement/transfer-payouts.ts';

/**
 * Escrows once they exist: read, released, refunded to the payer through a payout, ended at their
 * hold's expiry. What creating a payment needs of escrows (the terms) is
 * shared/operations/escrow-terms.ts, so payment creation imports none of the payout code here.
 */

export async function escrowsOf(
  caller: Caller,
  query: { status?: EscrowStatus | undefined; storeId?: string | undefined },
): Promise<Escrow[]> {
  if (query.storeId && !callerSeesStore(caller, query.storeId)) return [];
  return listEscrows(caller.businessId, { status: query.status, storeId: caller.storeId ?? query.storeId });
}

export async function escrowOf(caller: Caller, id: string, consistent = false): Promise<Escrow> {
  const escrow = await getEscrow(caller.businessId, id, consistent);
  if (!escrow || !callerSeesStore(caller, escrow.storeId)) throw new EscrowNotFound();
  return escrow;
}

export async function releaseEscrowFor(caller: Caller, id: string): Promise<Escrow> {
  const escrow = await escrowOf(caller, id, true);
  const released = await releaseEscrow(escrow);
  await dropHoldEnd(escrow.id);
  return released;
}

/**
 * Moves a held escrow's money to the store's operating wallet, once: the escrow's `held`
 * condition, the ledger entry (riding in the `escrow` transaction record) and the record in one
 * transaction; its ESCROW_RELEASED leaves from the table's stream. Whoever comes second (the API or the hold's expiry)
 * gets the 409 of the state the first left.
 */
export async function releaseEscrow(escrow: Escrow): Promise<Escrow> {
  if (escrow.status !== 'held') throw notHeldError(escrow.status);
  const createdAt = new Date().toISOString();
  const held = heldAmount(escrow);
  const [record, ...counters] = transactionRecordWrites({
    id: randomUUID(),
    businessId: escrow.businessId,
    storeId: escrow.storeId,
    type: 'escrow',
    status: 'success',
    amount: { amount: held, currency: escrow.currency },
    fees: { amount: 0, currency: escrow.currency },
    currency: escrow.currency,
    paymentMethod: escrow.provider ?? '',
    counterpartLabel: 'Escrow',
    counterpartIdentifier: escrow.id,
    description: `Escrow release ${escrow.id}`,
    reference: escrow.id,
    createdAt,
    transactionDetails: {
      id: escrow.paymentRequestId,
      ...(escrow.paymentLinkId ? { paymentLinkId: escrow.paymentLinkId } : {}),
    },
    paymentRequestId: escrow.paymentRequestId,
    escrowId: escrow.id,
  }) as [GuardedWrite, ...GuardedWrite[]];
  const writes: GuardedWrite[] = [
    escrowTransitionWrite(escrow.id, 'held', 'released', { releasedAt: createdAt }, createdAt),
    ...(held > 0
      ? ledgerWrites(
          {
            id: `escrow-release:${escrow.id}`,
            kind: 'escrow',
            cause: `escrow ${escrow.id} released`,
            createdAt,
            postings: escrowReleasePostings({
              businessId: escrow.businessId,
              storeId: escrow.storeId,
              amount: held,
            }),
          },
          { within: record },
        )
      : [record]),
    ...counters,
  ];
  try {
    await transactWrite(writes);
  } catch (error) {
    if (!(error instanceof EscrowMoved)) throw error;
    const now = await findEscrow(escrow.id, true);
    throw notHeldError(now?.status ?? 'released');
  }
  return { ...escrow, status: 'released', updatedAt: createdAt };
}

export async function refundEscrowFor(caller: Caller, id: string): Promise<Escrow> {
  return refundEscrow(await escrowOf(caller, id, true));
}

/**
 * Pays a held escrow back to the payer, as a transfer does: in one transaction the escrow moves to
 * `refunding` (once, whoever asks first), what its wallet holds is reserved there, and the payout
 * is recorded pending with its transaction-list line; then the payer's provider is asked to pay.
 * Its answer settles the payout (shared/settlement/transfer-payouts.ts), which takes the whole
 * payment out of the books (escrow wallet and the fee given back) and makes the escrow `refunded`,
 * with ESCROW_REFUNDED; a failed payout holds it again.
 */
export async function refundEscrow(escrow: Escrow): Promise<Escrow> {
  if (escrow.status !== 'held') throw notHeldError(escrow.status);
  if (!escrow.payerPhone || !escrow.provider) throw new PayerUnknown();
  const store = await getStore(escrow.businessId, escrow.storeId);
  if (!store) throw new EscrowNotFound();
  const now = new Date().toISOString();
  const held = heldAmount(escrow);
  const wallet = { businessId: escrow.businessId, storeId: escrow.storeId, kind: 'escrow' as const };
  const id = randomUUID();
  const transfer: Transfer = {
    id,
    businessId: escrow.businessId,
    storeId: escrow.storeId,
    storeName: store.name,
    // No contact: the payer is not a beneficiary the merchant saved.
    contactId: '',
    amountCents: escrow.amount,
    feeCents: 0,
    currency: escrow.currency,
    status: 'pending',
    errorReason: null,
    paymentMethod: escrow.provider,
    beneficiary: escrow.payerPhone,
    beneficiaryIdentifier: { number: escrow.payerPhone },
    description: `Escrow refund ${escrow.id}`,
    reference: id,
    callbackUrl: `${escrow.baseUrl}/provider_callbacks/${escrow.provider}/payouts`,
    referenceClaimed: false,
    transactionId: randomUUID(),
    reservation: {
      account: accounts.wallet(wallet.businessId, wallet.storeId, 'escrow'),
      amount: held,
      state: 'open',
    },
    escrow: {
      id: escrow.id,
      fees: escrow.fees,
      paymentRequestId: escrow.paymentRequestId,
      paymentLinkId: escrow.paymentLinkId,
      holdUntil: escrow.holdUntil,
    },
    createdAt: now,
    updatedAt: now,
  };
  try {
    await transactWrite([
      escrowTransitionWrite(escrow.id, 'held', 'refunding', { refundTransferId: id }, now),
      reserveWrite(wallet, held, () => new InsufficientBalance()),
      ...transferCreationWrites(transfer),
      ...transactionRecordWrites({ ...sendingRecord(transfer), escrowId: escrow.id }),
    ]);
  } catch (error) {
    if (!(error instanceof EscrowMoved)) throw error;
    throw notHeldError((await findEscrow(escrow.id, true))?.status ?? 'refunded');
  }
  try {
    await startTransferPayout(transfer);
  } catch (error) {
    // Refused at once: the payout ended in error and the escrow is held again; anything else
    // leaves the payout pending for the status query.
    if (!(error instanceof ProviderRefused)) throw error;
    return { ...escrow, updatedAt: now };
  }
  return { ...escrow, status: 'refunding', refundTransferId: id, updatedAt: now };
}

export type ExpiryResult = 'released' | 'refunded' | 'not_due' | 'not_held' | 'unknown';

/**
 * The hold's end: a held escrow past its time gets its `onExpiry` through the same conditional
 * transition as the API's; anything else (released first, cancelled, unknown) is left as it is.
 */
export async function expireEscrow(id: string, now = new Date()): Promise<ExpiryResult> {
  const escrow = await findEscrow(id, true);
  if (!escrow) return 'unknown';
  if (escrow.status !== 'held') return 'not_held';
  if (Date.parse(escrow.holdUntil) > now.getTime()) return 'not_due';
  try {
    if (escrow.onExpiry === 'refund') {
      await refundEscrow(escrow);
      return 'refunded';
    }
    await releaseEscrow(escrow);
    return 'released';
  } catch (error) {
    // Ended first (through the API), or its store is gone: any escrow error means no hold is left to end.
    if (error instanceof EscrowError) return 'not_held';
    throw error;
  }
}

export interface EscrowSweepReport {
  found: number;
  ended: number;
  failed: number;
}

/**
 * Held escrows past their time whose schedule was lost end here, through the same transition; a
 * marker whose escrow has ended is removed. Run on a schedule.
 */
export async function sweepEscrows(now = new Date(), limit = 100): Promise<EscrowSweepReport> {
  const due = await dueEscrows(now, limit);
  const report: EscrowSweepReport = { found: due.length, ended: 0, failed: 0 };
  for (const marker of due) {
    try {
      const result = await expireEscrow(marker.escrowId, now);
      if (result === 'released' || result === 'refunded') report.ended++;
      const escrow = await findEscrow(marker.escrowId, true);
      // A refund under way keeps its marker: a failed payout makes the escrow held again.
      if (!escrow || (escrow.status !== 'held' && escrow.status !== 'refunding'))
        await removeDueMarker(marker);
    } catch (error) {
      report.failed++;
      logger.error('due escrow not ended', { escrowId: marker.escrowId, error: error as Error });
    }
  }
  return report;
}
