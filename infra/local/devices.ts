import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { deviceRules } from '#shared/catalogue/device-rules.ts';
import { issueDeviceCredentials } from './device-credentials.ts';
import { startIotDataPlaneStandIn } from './iot-data-plane.ts';
import type { DemoCredentials } from './local-config.ts';
import { mqttWebSocketPath, startLocalBroker } from './mqtt-broker.ts';
import { serveSoundboxPage, soundboxPagePrefix } from './soundbox-page.ts';

/** Takes the broker down or up, to see what a payment does during an outage: `{"available": false}`. */
export const brokerControlPath = '/__local/broker';

type PresenceHandler = (payload: Record<string, unknown>) => Promise<void>;

/**
 * Everything soundbox on the local host: the broker (TCP at MQTT_PORT, default 1883 or a free port
 * when that one is taken, and WebSocket
 * on the HTTP server at /mqtt), the IoT data-plane stand-in the functions publish through, the IoT
 * rules' part (presence events to the same handler the stage's rules invoke), the simulator page
 * and the broker's outage switch.
 */
export async function startDevices(projectRoot: string, dataDir: string) {
  let presence: Promise<PresenceHandler> | undefined;
  const onPresence = (payload: Record<string, unknown>) => {
    presence ??= import(pathToFileURL(join(projectRoot, deviceRules.recordDevicePresence.entry)).href).then(
      (module: { handler: PresenceHandler }) => module.handler,
    );
    presence
      .then((handler) => handler(payload))
      .catch((error: unknown) => console.error('[recordDevicePresence] failed:', error));
  };
  const broker = await startLocalBroker({
    dataDir,
    port: process.env.MQTT_PORT ? Number(process.env.MQTT_PORT) : undefined,
    onPresence,
  });
  const dataPlane = await startIotDataPlaneStandIn(broker);
  let demoDevice: { id: string; password: string } | undefined;
  let webSocketUrl = '';

  return {
    endpoints: { iotData: dataPlane.endpoint, mqtt: broker.url },
    webSocketUrl(baseUrl: string) {
      webSocketUrl = `${baseUrl.replace(/^http/, 'ws')}${mqttWebSocketPath}`;
      return webSocketUrl;
    },
    pagePath: (deviceId: string) => `${soundboxPagePrefix}${encodeURIComponent(deviceId)}`,
    /** The demo device gets broker credentials on its first start (or after an upgrade without them). */
    withDemoDeviceCredentials(demo: DemoCredentials): DemoCredentials {
      const password = demo.devicePassword ?? issueDeviceCredentials(dataDir, demo.deviceId).password;
      demoDevice = { id: demo.deviceId, password };
      return { ...demo, devicePassword: password };
    },
    serves: (path: string) => path.startsWith(soundboxPagePrefix) || path === brokerControlPath,
    async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path === brokerControlPath) return controlBroker(request, response);
      try {
        await serveSoundboxPage(request, response, {
          webSocketUrl,
          storeName,
          knownPassword: (deviceId) => (deviceId === demoDevice?.id ? demoDevice.password : undefined),
        });
      } catch (error) {
        console.error('[soundbox page] failed:', error);
        response.writeHead(500).end();
      }
    },
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path === mqttWebSocketPath) broker.upgrade(request, socket, head);
      else socket.destroy();
    },
    stop: async () => {
      await dataPlane.stop();
      await broker.stop();
    },
  };

  async function controlBroker(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const { available } = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { available?: unknown };
      if (typeof available !== 'boolean') {
        response.writeHead(400, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify({ message: 'available must be true or false' }));
      }
      broker.setAvailable(available);
      console.log(`[broker] ${available ? 'available again' : 'unavailable (outage)'}`);
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ available: broker.available }));
  }
}

/** Imported on use: these modules build their AWS clients from the variables the host sets first. */
async function storeName(deviceId: string): Promise<string | undefined> {
  const { findDeviceBusiness, getDevice } = await import('#shared/data/device.ts');
  const { getStore } = await import('#shared/data/store.ts');
  const businessId = await findDeviceBusiness(deviceId);
  if (!businessId) return undefined;
  const device = await getDevice(businessId, deviceId);
  if (!device) return undefined;
  return (await getStore(businessId, device.storeId))?.name;
}
