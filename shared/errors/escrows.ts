import type { EscrowStatus } from '#shared/domain/escrows.ts';
import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict } from '#shared/errors/request.ts';

/** Errors of escrows: each id of an escrow's own starts `escrow_`. */
export type EscrowErrorId =
  | 'escrow_not_found'
  | 'escrow_already_released'
  | 'escrow_already_refunded'
  | 'escrow_not_held';

/**
 * An escrow's own errors (ids `escrow_*`): not found, or not in the `held` state a release or a
 * refund leaves. Who needs to know that an escrow cannot be ended, whichever the reason, catches
 * this class.
 */
export class EscrowError extends DomainError {
  constructor(id: EscrowErrorId, message: string) {
    super(id, message);
  }
}

export class EscrowNotFound extends EscrowError {
  constructor() {
    super('escrow_not_found', 'Escrow not found');
  }
}

export class EscrowAlreadyReleased extends EscrowError {
  constructor() {
    super('escrow_already_released', 'The escrow is already released');
  }
}

export class EscrowAlreadyRefunded extends EscrowError {
  constructor() {
    super('escrow_already_refunded', 'The escrow is already refunded, or being refunded');
  }
}

export class EscrowNotHeld extends EscrowError {
  constructor(status: EscrowStatus) {
    super('escrow_not_held', `The escrow is ${status}: only a held escrow can be released or refunded`);
  }
}

/** The 409 a transition out of `held` gets when the escrow is in `status` instead. */
export function notHeldError(status: EscrowStatus): EscrowError {
  if (status === 'released') return new EscrowAlreadyReleased();
  if (status === 'refunding' || status === 'refunded') return new EscrowAlreadyRefunded();
  return new EscrowNotHeld(status);
}

/** The transition's condition failed: someone else moved the escrow first. */
export class EscrowMoved extends Conflict {
  constructor() {
    super('The escrow is no longer in the state this transition leaves');
  }
}

export class PayerUnknown extends Conflict {
  constructor() {
    super('The payer of this escrow is unknown, so it cannot be refunded');
  }
}
