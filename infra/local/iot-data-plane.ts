import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalBroker } from './mqtt-broker.ts';

/**
 * The IoT data plane's Publish, as `@aws-sdk/client-iot-data-plane` sends it
 * (`POST /topics/{topic}?qos=&retain=`, the raw payload as body), handed to the local broker. The
 * functions reach it through AWS_ENDPOINT_URL_IOT_DATA_PLANE, unchanged. While the broker is down
 * it answers 503 ServiceUnavailableException, as IoT Core does when it cannot take a message.
 */
export async function startIotDataPlaneStandIn(
  broker: LocalBroker,
): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = /^\/topics\/(.+)$/.exec(url.pathname);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = (status: number, type: string, message: string) => {
      response.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
      response.end(JSON.stringify({ message }));
    };
    if (request.method !== 'POST' || !match?.[1])
      return answer(404, 'ResourceNotFoundException', 'Not found');
    const topic = decodeURIComponent(match[1]);
    const qos = Number(url.searchParams.get('qos') ?? 0);
    if (qos !== 0 && qos !== 1) return answer(400, 'InvalidRequestException', 'qos must be 0 or 1');
    try {
      await broker.publish(topic, Buffer.concat(chunks), {
        qos,
        retain: url.searchParams.get('retain') === 'true',
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    } catch (error) {
      answer(503, 'ServiceUnavailableException', (error as Error).message);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
