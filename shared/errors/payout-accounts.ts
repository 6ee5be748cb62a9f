import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of payout accounts and the withdrawals to them (issue 34). */
export type PayoutAccountErrorId =
  | 'payout_account_not_found'
  | 'payout_account_exists'
  | 'payout_account_cooling'
  | 'nothing_to_withdraw';

export class PayoutAccountNotFound extends DomainError {
  constructor() {
    super('payout_account_not_found', 'Payout account not found');
  }
}

/** The same number or bank account is registered already: that account (and its cooling) stands. */
export class PayoutAccountExists extends DomainError {
  constructor() {
    super('payout_account_exists', 'This payout account is registered already');
  }
}

/** A new account waits out its cooling period before money may go there. */
export class PayoutAccountCooling extends DomainError {
  constructor(readonly usableFrom: string) {
    super('payout_account_cooling', `This payout account can receive withdrawals from ${usableFrom}`, {
      usableFrom,
    });
  }
}

/** "Everything available" found less than the smallest withdrawal and its fee. */
export class NothingToWithdraw extends DomainError {
  constructor(availableCents: number) {
    super('nothing_to_withdraw', 'The available balance does not cover the smallest withdrawal and its fee', {
      availableCents,
    });
  }
}
