import {
  ConflictException,
  PinpointSMSVoiceV2Client,
  SendTextMessageCommand,
  ValidationException,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SmsRefused } from '#shared/errors/messages.ts';
import { awsSmsGateway } from '#shared/sms/aws.ts';
import { smsConfigurationSetVariable, smsOriginationIdentityVariable } from '#shared/sms/port.ts';

const smsVoice = mockClient(PinpointSMSVoiceV2Client);
const sms = { businessId: 'b-1', messageId: 'm-1', to: '+2250700000001', body: 'Merci' };

beforeEach(() => {
  smsVoice.reset();
  process.env[smsConfigurationSetVariable] = 'partner-payments-prod-sms';
  process.env[smsOriginationIdentityVariable] = 'SVCPAY';
});

afterEach(() => {
  delete process.env[smsConfigurationSetVariable];
  delete process.env[smsOriginationIdentityVariable];
});

describe('the AWS End User Messaging SMS gateway', () => {
  it('sends a transactional text with the configuration set, the sender and the ids as context', async () => {
    smsVoice.on(SendTextMessageCommand).resolves({ MessageId: 'aws-123' });
    await expect(awsSmsGateway.send(sms)).resolves.toEqual({ providerMessageId: 'aws-123' });
    const [call] = smsVoice.commandCalls(SendTextMessageCommand);
    expect(call?.args[0].input).toEqual({
      DestinationPhoneNumber: '+2250700000001',
      MessageBody: 'Merci',
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'partner-payments-prod-sms',
      OriginationIdentity: 'SVCPAY',
      Context: { businessId: 'b-1', messageId: 'm-1' },
    });
  });

  it('reads a refused destination as a failure before the carrier, with its reason', async () => {
    smsVoice
      .on(SendTextMessageCommand)
      .rejectsOnce(new ValidationException({ message: 'bad number', $metadata: {}, Reason: 'CANNOT_PARSE' }))
      .rejectsOnce(
        new ConflictException({
          message: 'opted out',
          $metadata: {},
          Reason: 'DESTINATION_PHONE_NUMBER_OPTED_OUT',
          ResourceType: 'opted-out-number',
          ResourceId: '+2250700000001',
        }),
      )
      .rejectsOnce(
        new ValidationException({ message: 'too long', $metadata: {}, Reason: 'MAXIMUM_SIZE_EXCEEDED' }),
      );
    await expect(awsSmsGateway.send(sms)).rejects.toMatchObject({
      name: 'SmsRefused',
      reason: 'invalid_number',
    });
    await expect(awsSmsGateway.send(sms)).rejects.toMatchObject({ name: 'SmsRefused', reason: 'opted_out' });
    await expect(awsSmsGateway.send(sms)).rejects.toMatchObject({ name: 'SmsRefused', reason: 'rejected' });
  });

  it('lets a passing failure (throttling, an outage) through, to be retried', async () => {
    smsVoice
      .on(SendTextMessageCommand)
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    const failure = await awsSmsGateway.send(sms).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(SmsRefused);
    expect((failure as Error).message).toBe('Rate exceeded');
  });
});
