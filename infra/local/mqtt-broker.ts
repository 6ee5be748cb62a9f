import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { parseSoundboxTopic, soundboxTopicPrefix, soundboxTopics } from '#shared/domain/soundbox.ts';
import { localStageName } from '#shared/stage.ts';
import { deviceCredentialsValid } from './device-credentials.ts';

/** The path of the broker's MQTT-over-WebSocket endpoint on the local host's HTTP server. */
export const mqttWebSocketPath = '/mqtt';

/** What the broker tells the presence rule: the payloads IoT Core's rules would build. */
export type PresenceListener = (payload: Record<string, unknown>) => void;

export interface LocalBroker {
  /** `mqtt://127.0.0.1:<port>` */
  url: string;
  /** Publishes as the service does (the data-plane stand-in): no device policy applies. */
  publish(topic: string, payload: Buffer, options: { qos: 0 | 1; retain: boolean }): Promise<void>;
  /** Hands a WebSocket upgrade of the HTTP server to the broker. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** While unavailable, connections are cut and refused, and publishes fail: a broker outage. */
  setAvailable(available: boolean): void;
  readonly available: boolean;
  stop(): Promise<void>;
}

const refused = (code: AuthenticateError['returnCode'], message: string): AuthenticateError =>
  Object.assign(new Error(message), { returnCode: code });

/**
 * The IoT Core stand-in devices talk to: an embedded aedes broker over TCP and WebSocket, with the
 * stage's IoT policy as its rules. A device connects with its own id as client id and as username,
 * and its password from the device registry; it may subscribe only under `local/soundbox/<its id>/`
 * and publish only to `local/soundbox/<its id>/status` (a publish elsewhere disconnects it, as IoT Core
 * does). Its heartbeats and its connections and disconnections go to `onPresence`, as the stage's
 * IoT rules send them to the presence function.
 */
export async function startLocalBroker(options: {
  dataDir: string;
  port?: number;
  onPresence: PresenceListener;
}): Promise<LocalBroker> {
  let available = true;
  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      if (!available) return done(refused(3, 'broker unavailable'), false);
      if (!client.id || username !== client.id) {
        return done(refused(2, 'the client id must be the device id, as the username'), false);
      }
      if (!password || !deviceCredentialsValid(options.dataDir, client.id, password.toString('utf8'))) {
        return done(refused(4, 'bad device credentials'), false);
      }
      done(null, true);
    },
    authorizeSubscribe(client, subscription, callback) {
      // A refused filter is answered 0x80 in the SUBACK; the client stays connected.
      callback(
        null,
        subscription.topic.startsWith(`${soundboxTopicPrefix(localStageName)}${client.id}/`)
          ? subscription
          : null,
      );
    },
    authorizePublish(client, packet, callback) {
      if (client && packet.topic !== soundboxTopics(localStageName, client.id).status) {
        return callback(new Error(`${client.id} may not publish to ${packet.topic}`));
      }
      callback(null);
    },
  });

  const now = () => Date.now();
  broker.on('client', (client: Client) => {
    options.onPresence({ clientId: client.id, eventType: 'connected', timestamp: now() });
  });
  broker.on('clientDisconnect', (client: Client) => {
    options.onPresence({ clientId: client.id, eventType: 'disconnected', timestamp: now() });
  });
  broker.on('publish', (packet, client) => {
    if (!client) return;
    const parsed = parseSoundboxTopic(localStageName, packet.topic);
    if (parsed?.topic !== 'status') return;
    try {
      const message = JSON.parse(packet.payload.toString()) as Record<string, unknown>;
      if (message.type !== 'heartbeat') return;
      options.onPresence({ ...message, deviceId: parsed.deviceId, receivedAt: now() });
    } catch {
      // Not JSON: IoT Core's rule would not match it either.
    }
  });

  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((socket: Socket) => {
    if (!available) return socket.destroy();
    track(socket);
    broker.handle(socket);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(options.port ?? 1883);
  } catch (error) {
    // MQTT's usual port is often taken by a broker of the developer's own: any free one will do
    // (devices get the address from `create-device`), unless a port was asked for.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port !== undefined) throw error;
    await listen(0);
  }
  const webSockets = new WebSocketServer({ noServer: true });

  return {
    url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get available() {
      return available;
    },
    publish: (topic, payload, { qos, retain }) =>
      new Promise((resolve, reject) => {
        if (!available) return reject(new Error('broker unavailable'));
        broker.publish({ cmd: 'publish', topic, payload, qos, retain, dup: false }, (error) =>
          error ? reject(error) : resolve(),
        );
      }),
    upgrade(request, socket, head) {
      if (!available) return socket.destroy();
      webSockets.handleUpgrade(request, socket, head, (webSocket) => {
        const stream = createWebSocketStream(webSocket);
        track(stream);
        broker.handle(stream, request);
      });
    },
    setAvailable(value) {
      available = value;
      if (!value) for (const socket of sockets) socket.destroy();
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      webSockets.close();
      await new Promise((resolve) => server.close(resolve));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
