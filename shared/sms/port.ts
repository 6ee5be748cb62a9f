/**
 * The one port behind which SMS gateways sit: AWS End User Messaging SMS on production, the
 * sandbox gateway elsewhere. Sending hands a message to the gateway; what the carrier does with it
 * comes back later as delivery events (`shared/domain/sms-events.ts`), which carry the message's
 * `businessId` and `messageId` as their context.
 */
/** Set on production: the configuration set whose event destination reports deliveries. */
export const smsConfigurationSetVariable = 'SMS_CONFIGURATION_SET';
/** A stage setting: the sender id, phone number or pool messages go out from. */
export const smsOriginationIdentityVariable = 'SMS_ORIGINATION_IDENTITY';

export interface OutgoingSms {
  businessId: string;
  messageId: string;
  /** International form, `+` and digits. */
  to: string;
  body: string;
}

export interface SmsAccepted {
  /** The gateway's id of the message. */
  providerMessageId: string;
}

export interface SmsGateway {
  /**
   * Throws `SmsRefused` when the gateway refuses the message for good before any carrier has it
   * (the segments are then given back); any other error is passing, and the send is retried.
   */
  send(sms: OutgoingSms): Promise<SmsAccepted>;
}
