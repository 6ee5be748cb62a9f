import {
  ConflictException,
  SendTextMessageCommand,
  ValidationException,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { smsVoice } from '#shared/aws/sms.ts';
import { SmsRefused } from '#shared/errors/messages.ts';
import {
  type SmsGateway,
  smsConfigurationSetVariable,
  smsOriginationIdentityVariable,
} from '#shared/sms/port.ts';

/** Validation reasons that say the destination itself cannot receive from us. */
const numberRefusals = new Set([
  'CANNOT_PARSE',
  'COUNTRY_CODE_MISMATCH',
  'DESTINATION_COUNTRY_BLOCKED',
  'INVALID_IDENTITY_FOR_DESTINATION_COUNTRY',
]);

/**
 * AWS End User Messaging SMS: SendTextMessage, transactional, with the configuration set whose
 * event destination brings the carrier's delivery events back, and the message's ids as context.
 */
export const awsSmsGateway: SmsGateway = {
  async send(sms) {
    const configurationSet = process.env[smsConfigurationSetVariable];
    const origination = process.env[smsOriginationIdentityVariable];
    try {
      const { MessageId } = await smsVoice.send(
        new SendTextMessageCommand({
          DestinationPhoneNumber: sms.to,
          MessageBody: sms.body,
          MessageType: 'TRANSACTIONAL',
          ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
          ...(origination ? { OriginationIdentity: origination } : {}),
          Context: { businessId: sms.businessId, messageId: sms.messageId },
        }),
      );
      if (!MessageId) throw new Error('SendTextMessage answered no MessageId');
      return { providerMessageId: MessageId };
    } catch (error) {
      if (error instanceof ConflictException && error.Reason === 'DESTINATION_PHONE_NUMBER_OPTED_OUT')
        throw new SmsRefused('opted_out', 'The destination number has opted out of our messages');
      if (error instanceof ValidationException) {
        const reason = error.Reason && numberRefusals.has(error.Reason) ? 'invalid_number' : 'rejected';
        throw new SmsRefused(reason, `SendTextMessage refused the message: ${error.Reason ?? error.message}`);
      }
      throw error;
    }
  },
};
