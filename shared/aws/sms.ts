import { PinpointSMSVoiceV2Client } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { traced } from '#shared/aws/tracing.ts';

/**
 * One AWS End User Messaging SMS client per container. The endpoint comes from the standard
 * AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2 variable when it is set, so nothing here knows where it runs.
 */
// Pure: a function whose code never sends an SMS leaves the client, and its SDK, out of its bundle.
export const smsVoice = /* @__PURE__ */ traced(/* @__PURE__ */ new PinpointSMSVoiceV2Client({}));
