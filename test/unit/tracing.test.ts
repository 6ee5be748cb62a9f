import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { traced } from '#shared/aws/tracing.ts';
import { callProvider } from '#shared/providers/provider-http.ts';

const daemon = createSocket('udp4');
const datagrams: string[] = [];
let server: Server;
let endpoint: string;

/** Answers like DynamoDB: an empty item, or a 400 for the table `missing`. */
beforeAll(async () => {
  daemon.on('message', (message) => datagrams.push(message.toString()));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const missing = body.includes('"missing"');
      response.writeHead(missing ? 400 : 200, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-requestid': missing ? 'request-400' : 'request-200',
      });
      response.end(
        missing
          ? JSON.stringify({
              __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
              message: 'no',
            })
          : '{}',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
});

afterEach(() => {
  datagrams.length = 0;
  delete process.env._X_AMZN_TRACE_ID;
});

afterAll(() => {
  delete process.env.AWS_XRAY_DAEMON_ADDRESS;
  daemon.close();
  server.close();
});

const traceId = '1-5759e988-bd862e3fe1be46a994272793';
const sampled = `Root=${traceId};Parent=53995c3f42cd8ad8;Sampled=1`;

const client = () =>
  traced(
    new DynamoDBClient({
      endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    }),
  );

async function received(count: number) {
  for (let waited = 0; datagrams.length < count && waited < 2_000; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return datagrams.map((datagram) => {
    const [header, document] = datagram.split('\n');
    expect(JSON.parse(header ?? '')).toEqual({ format: 'json', version: 1 });
    return JSON.parse(document ?? '');
  });
}

describe('X-Ray subsegments sent to the daemon', () => {
  it('record an SDK call under the invocation’s segment, named after its service and operation', async () => {
    process.env._X_AMZN_TRACE_ID = sampled;
    await client().send(new GetItemCommand({ TableName: 'table', Key: { pk: { S: 'a' } } }));
    const [subsegment] = await received(1);
    expect(subsegment).toMatchObject({
      type: 'subsegment',
      trace_id: traceId,
      parent_id: '53995c3f42cd8ad8',
      name: 'DynamoDB',
      namespace: 'aws',
      aws: { operation: 'GetItem', request_id: 'request-200', retries: 0 },
      http: { response: { status: 200 } },
    });
    expect(subsegment.id).toMatch(/^[0-9a-f]{16}$/);
    expect(subsegment.end_time).toBeGreaterThanOrEqual(subsegment.start_time);
    expect(subsegment.error).toBeUndefined();
  });

  it('mark a call the service refused as an error, and keep its request id', async () => {
    process.env._X_AMZN_TRACE_ID = sampled;
    await expect(
      client().send(new GetItemCommand({ TableName: 'missing', Key: { pk: { S: 'a' } } })),
    ).rejects.toThrow();
    const [subsegment] = await received(1);
    expect(subsegment).toMatchObject({
      aws: { operation: 'GetItem', request_id: 'request-400' },
      http: { response: { status: 400 } },
      error: true,
    });
  });

  it('record a provider’s HTTP call as a remote subsegment, without its query string', async () => {
    process.env._X_AMZN_TRACE_ID = sampled;
    await callProvider('test', {
      method: 'GET',
      url: `${endpoint}/status?token=secret`,
      headers: {},
      retryable: false,
    });
    const [subsegment] = await received(1);
    expect(subsegment).toMatchObject({
      name: new URL(endpoint).host,
      namespace: 'remote',
      http: { request: { method: 'GET', url: `${endpoint}/status` }, response: { status: 200 } },
    });
    expect(JSON.stringify(subsegment)).not.toContain('secret');
  });

  it('send nothing for an invocation that is not sampled, or outside Lambda', async () => {
    process.env._X_AMZN_TRACE_ID = `Root=${traceId};Parent=53995c3f42cd8ad8;Sampled=0`;
    await client().send(new GetItemCommand({ TableName: 'table', Key: { pk: { S: 'a' } } }));
    delete process.env._X_AMZN_TRACE_ID;
    await client().send(new GetItemCommand({ TableName: 'table', Key: { pk: { S: 'a' } } }));
    // Time let pass on purpose: a datagram sent would have arrived by then; none may.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(datagrams).toEqual([]);
  });
});
