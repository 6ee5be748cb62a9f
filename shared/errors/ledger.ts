import type { AccountId } from '#shared/domain/ledger.ts';
import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict } from '#shared/errors/request.ts';

/** Errors of the ledger and the wallets it posts to. */
export type LedgerErrorId = 'insufficient_balance';

export class InsufficientBalance extends DomainError {
  constructor() {
    super('insufficient_balance', 'The available balance is insufficient for this operation');
  }
}

export class AlreadyPosted extends Conflict {
  constructor(entryId: string) {
    super(`Journal entry ${entryId} is already posted`);
  }
}

export class ReservationMissing extends Conflict {
  constructor(account: AccountId) {
    super(`No reservation on ${account} covers this entry`);
  }
}

/** A journal entry that breaks the ledger's rules (a programming error, never a caller's). */
export class UnbalancedEntry extends Error {}
