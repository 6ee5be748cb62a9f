import jsQR from 'jsqr';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import QRCode from 'qrcode';
import type { DeviceProvisioning } from '#infra/admin-device.ts';

export interface ReceivedMessage {
  topic: string;
  payload: Buffer;
  retain: boolean;
  at: number;
}

/** A soundbox played by a real MQTT client: every message it receives is kept, in order. */
export interface TestDevice {
  client: MqttClient;
  messages: ReceivedMessage[];
  /** The first message on `topic` (received already, or within `timeoutMs`) that `match` accepts. */
  next(
    topic: string,
    match?: (message: ReceivedMessage) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMessage>;
  close(): Promise<void>;
}

export async function connectDevice(
  provisioning: DeviceProvisioning,
  options: Partial<IClientOptions> = {},
): Promise<TestDevice> {
  const client = await mqtt.connectAsync(provisioning.mqtt.url, {
    clientId: provisioning.mqtt.clientId,
    username: provisioning.mqtt.username,
    password: provisioning.mqtt.password,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    ...options,
  });
  const messages: ReceivedMessage[] = [];
  client.on('message', (topic, payload, packet) => {
    messages.push({ topic, payload, retain: packet.retain, at: Date.now() });
  });
  return {
    client,
    messages,
    async next(topic, match = () => true, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((message) => message.topic === topic && match(message));
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `no matching message on ${topic} within ${timeoutMs} ms (got ${messages.length} in all)`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    // Forced, and bounded: a client the broker already dropped may never call back.
    close: () =>
      Promise.race([
        new Promise<void>((resolve) => client.end(true, {}, () => resolve())),
        new Promise<void>((resolve) => setTimeout(resolve, 1_000)),
      ]),
  };
}

export const json = (message: ReceivedMessage) =>
  JSON.parse(message.payload.toString()) as Record<string, unknown>;

/**
 * Draws `text` as the simulator does (the same library's module matrix, one module per 4 pixels
 * with a quiet zone) and reads it back with a QR decoder, as a payer's camera would.
 */
export function drawAndDecodeQr(text: string): string | undefined {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = 4;
  const quiet = 4;
  const side = (modules.size + 2 * quiet) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (!modules.get(row, column)) continue;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const y = (row + quiet) * scale + dy;
          const x = (column + quiet) * scale + dx;
          pixels.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
        }
      }
    }
  }
  return jsQR(pixels, side, side)?.data;
}
