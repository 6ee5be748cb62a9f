import { IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';

/**
 * One IoT data-plane client per container. The endpoint comes from the standard
 * AWS_ENDPOINT_URL_IOT_DATA_PLANE variable when it is set (the stage's account-specific endpoint,
 * the local host's stand-in), so nothing here knows where it runs. A publish that fails is retried
 * later from the device-push outbox, so the SDK's own retries are kept short: the payment's answer
 * must not wait on an unreachable broker.
 */
export const iotData = new IoTDataPlaneClient({
  maxAttempts: 2,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
});
