import { PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { iotData } from '#shared/aws/iot-data.ts';
import type { DevicePush } from '#shared/devices/port.ts';
import { soundboxTopics } from '#shared/domain/soundbox.ts';
import { stageName } from '#shared/stage.ts';

const json = (message: unknown) => new TextEncoder().encode(JSON.stringify(message));

/**
 * Devices reached through IoT Core's data plane (HTTPS Publish), on their stage's topics. QoS 1 everywhere: the broker
 * acknowledges delivery to a connected device and re-sends until it does. An empty retained
 * message is MQTT's way to delete the retained one.
 */
export const iotDataPlanePush: DevicePush = {
  async show(deviceId, message) {
    await publish(soundboxTopics(stageName(), deviceId).display, json(message), true);
  },
  async clear(deviceId) {
    await publish(soundboxTopics(stageName(), deviceId).display, new Uint8Array(), true);
  },
  async announce(deviceId, message) {
    await publish(soundboxTopics(stageName(), deviceId).announce, json(message), false);
  },
};

async function publish(topic: string, payload: Uint8Array, retain: boolean): Promise<void> {
  await iotData.send(new PublishCommand({ topic, payload, qos: 1, retain }));
}
