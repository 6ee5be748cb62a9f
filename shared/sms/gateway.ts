import { awsSmsGateway } from '#shared/sms/aws.ts';
import type { SmsGateway } from '#shared/sms/port.ts';
import { sandboxSmsGateway } from '#shared/sms/sandbox.ts';

/**
 * The stage's SMS gateway: sandbox stages (SANDBOX=true, set by the stack and the local host) use
 * the sandbox gateway, production sends through AWS End User Messaging SMS.
 */
export function smsGateway(): SmsGateway {
  return process.env.SANDBOX === 'true' ? sandboxSmsGateway : awsSmsGateway;
}
