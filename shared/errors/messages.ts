import { DomainError } from '#shared/errors/domain-error.ts';
import { Conflict } from '#shared/errors/request.ts';

/** Errors of messages (SMS): the API's, the account's, and the gateway's. */
export type MessageErrorId =
  | 'message_not_found'
  | 'message_exists_with_reference'
  | 'insufficient_sms_balance';

export class MessageNotFound extends DomainError {
  constructor() {
    super('message_not_found', 'Message not found');
  }
}

export class MessageExistsWithReference extends DomainError {
  constructor(reference: string) {
    super('message_exists_with_reference', `A message with reference ${reference} already exists`);
  }
}

export class InsufficientSmsBalance extends DomainError {
  constructor(segments: number) {
    super(
      'insufficient_sms_balance',
      `The SMS balance does not cover the ${segments} segment(s) of this message`,
      { segments },
    );
  }
}

/** The settlement's condition failed: the message was settled first. */
export class MessageAlreadySettled extends Conflict {
  constructor() {
    super('The message is no longer pending');
  }
}

export class SmsCreditAlreadyRecorded extends Conflict {
  constructor() {
    super('This credit was already recorded');
  }
}

/** Refused before the carrier: retrying would be refused again. */
export class SmsRefused extends Error {
  constructor(
    /** The message's `failedReason`: `invalid_number`, `opted_out`, `rejected`. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'SmsRefused';
  }
}

/** Another sender holds the message's claim: this copy of its queue message comes back later. */
export class SmsBeingSent extends Error {
  constructor(messageId: string) {
    super(`sms ${messageId} is being sent by another worker`);
    this.name = 'SmsBeingSent';
  }
}
