import { createHash, randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pollQueue, type QueuePoller, type WorkerHandler } from '#infra/local/queue-poller.ts';
import { localQueueUrl, type RunningSqs, startLocalSqs } from '#infra/local/sqs.ts';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';

let localSqs: RunningSqs;
let client: SQSClient;
const pollers: QueuePoller[] = [];

beforeAll(async () => {
  localSqs = await startLocalSqs();
  client = new SQSClient({
    endpoint: localSqs.endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

afterAll(async () => {
  client.destroy();
  await localSqs.stop();
});

const maxReceiveCount = 2;

/** A queue that hides a received message for 1 s, with a dead-letter queue after two receives. */
async function newQueue() {
  const name = `poller-${randomUUID()}`;
  const deadLetters = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: deadLetters.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  await client.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: '1',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount }),
      },
    }),
  );
  return {
    url: localQueueUrl(localSqs.endpoint, name),
    deadLettersUrl: localQueueUrl(localSqs.endpoint, `${name}-dlq`),
  };
}

async function sendAll(queueUrl: string, bodies: string[]) {
  const { Successful = [] } = await client.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((body, index) => ({ Id: String(index), MessageBody: body })),
    }),
  );
  expect(Successful).toHaveLength(bodies.length);
}

async function waitingMessages(queueUrl: string): Promise<number> {
  const { Attributes = {} } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }),
  );
  return (
    Number(Attributes.ApproximateNumberOfMessages) +
    Number(Attributes.ApproximateNumberOfMessagesNotVisible) +
    Number(Attributes.ApproximateNumberOfMessagesDelayed)
  );
}

/** What the test worker was handed: each record's body and its receive count, batch by batch. */
type Deliveries = { body: string; receiveCount: number }[][];

/**
 * Starts a poller over a test worker that records every batch and then behaves as `answer` says:
 * a body of `fail-once` is reported failed on its first receive, `always-fail` always, and a batch
 * holding `throw-once` on its first receive makes the worker throw.
 */
function startWorker(queueUrl: string, answer?: WorkerHandler): Deliveries {
  const deliveries: Deliveries = [];
  const failedNow = (record: SQSRecord) =>
    record.body === 'always-fail' ||
    (record.body === 'fail-once' && record.attributes.ApproximateReceiveCount === '1');
  const worker: WorkerHandler = async (event: SQSEvent, context) => {
    deliveries.push(
      event.Records.map((record) => ({
        body: record.body,
        receiveCount: Number(record.attributes.ApproximateReceiveCount),
      })),
    );
    if (answer) return answer(event, context);
    if (
      event.Records.some(
        (record) => record.body === 'throw-once' && record.attributes.ApproximateReceiveCount === '1',
      )
    )
      throw new Error('the worker crashed');
    return {
      batchItemFailures: event.Records.filter(failedNow).map((record) => ({
        itemIdentifier: record.messageId,
      })),
    } satisfies SQSBatchResponse;
  };
  pollers.push(
    pollQueue({
      client,
      queueUrl,
      functionName: 'testWorker',
      batchSize: 10,
      handler: worker,
      waitTimeSeconds: 1,
    }),
  );
  return deliveries;
}

const receivesOf = (deliveries: Deliveries, body: string) =>
  deliveries
    .flat()
    .filter((record) => record.body === body)
    .map((record) => record.receiveCount);

const waitFor = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 8000, interval: 50 });

describe('the local queue poller', () => {
  it('deletes the records the worker handled and brings back those it reported failed, received twice', async () => {
    const { url } = await newQueue();
    const deliveries = startWorker(url);
    await sendAll(url, ['ok-1', 'fail-once', 'ok-2']);

    await waitFor(() => expect(receivesOf(deliveries, 'fail-once')).toEqual([1, 2]));
    await waitFor(async () => expect(await waitingMessages(url)).toBe(0));
    expect(deliveries[0]?.map((record) => record.body).sort()).toEqual(['fail-once', 'ok-1', 'ok-2']);
    expect(receivesOf(deliveries, 'ok-1')).toEqual([1]);
    expect(receivesOf(deliveries, 'ok-2')).toEqual([1]);
  });

  it('deletes nothing when the worker throws: the whole batch comes back', async () => {
    const { url } = await newQueue();
    const deliveries = startWorker(url);
    await sendAll(url, ['ok-1', 'throw-once']);

    await waitFor(() => expect(receivesOf(deliveries, 'throw-once')).toEqual([1, 2]));
    expect(receivesOf(deliveries, 'ok-1')).toEqual([1, 2]);
    await waitFor(async () => expect(await waitingMessages(url)).toBe(0));
  });

  it('leaves a message that always fails to the dead-letter queue after maxReceiveCount receives', async () => {
    const { url, deadLettersUrl } = await newQueue();
    const deliveries = startWorker(url);
    await sendAll(url, ['always-fail', 'ok-1']);

    await waitFor(async () => expect(await waitingMessages(deadLettersUrl)).toBe(1));
    expect(receivesOf(deliveries, 'always-fail')).toEqual([1, 2]);
    expect(receivesOf(deliveries, 'ok-1')).toEqual([1]);
    expect(await waitingMessages(url)).toBe(0);
    const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl: deadLettersUrl }));
    expect(Messages.map((message) => message.Body)).toEqual(['always-fail']);
  });

  it('fails the whole batch when the answer names a message that is not in it, as Lambda does', async () => {
    const { url } = await newQueue();
    const deliveries = startWorker(url, () => ({
      batchItemFailures: [{ itemIdentifier: 'not-in-the-batch' }],
    }));
    await sendAll(url, ['ok-1', 'ok-2']);

    await waitFor(() => expect(receivesOf(deliveries, 'ok-1')).toEqual([1, 2]));
    expect(receivesOf(deliveries, 'ok-2')).toEqual([1, 2]);
  });

  it('hands the worker records shaped as in the SQS event Lambda sends', async () => {
    const { url } = await newQueue();
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    );
    const records: SQSRecord[] = [];
    startWorker(url, (event) => {
      records.push(...event.Records);
    });
    // Sent through the service's own helper, as a function granted queue:send would.
    process.env.AWS_ENDPOINT_URL_SQS = localSqs.endpoint;
    process.env[queueUrlVariable('sandboxCallbacks')] = url;
    const { sendToQueue } = await import('#shared/aws/sqs.ts');
    const body = { paymentId: randomUUID(), outcome: 'success' };
    const messageId = await sendToQueue('sandboxCallbacks', body);

    await waitFor(() => expect(records).toHaveLength(1));
    const [record] = records as [SQSRecord];
    const json = JSON.stringify(body);
    expect(record).toEqual({
      messageId,
      receiptHandle: expect.any(String),
      body: json,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d{13}$/),
        SenderId: expect.any(String),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d{13}$/),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(json).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: Attributes?.QueueArn,
      awsRegion: 'eu-west-1',
    });
    await waitFor(async () => expect(await waitingMessages(url)).toBe(0));
  });

  it('gets every message of a batch send, in batches no larger than the worker takes', async () => {
    const { url } = await newQueue();
    const deliveries = startWorker(url, () => undefined);
    process.env.AWS_ENDPOINT_URL_SQS = localSqs.endpoint;
    process.env[queueUrlVariable('sandboxCallbacks')] = url;
    const { sendBatchToQueue } = await import('#shared/aws/sqs.ts');
    const bodies = Array.from({ length: 23 }, (_, index) => ({ index }));
    const ids = await sendBatchToQueue('sandboxCallbacks', bodies);
    expect(new Set(ids).size).toBe(23);

    await waitFor(() => expect(deliveries.flat()).toHaveLength(23));
    expect(
      deliveries
        .flat()
        .map((record) => (JSON.parse(record.body) as { index: number }).index)
        .sort((a, b) => a - b),
    ).toEqual(bodies.map(({ index }) => index));
    for (const batch of deliveries) expect(batch.length).toBeLessThanOrEqual(10);
  });

  it('stops in the middle of a long poll at once, leaving the queue to the next receiver', async () => {
    const { url } = await newQueue();
    const deliveries: Deliveries = [];
    const poller = pollQueue({
      client,
      queueUrl: url,
      functionName: 'testWorker',
      batchSize: 10,
      handler: () => void deliveries.push([]),
      waitTimeSeconds: 20,
    });
    // Time let pass on purpose, for a 20 s long poll to be under way: the stop must not wait it out.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await poller.stop();
    expect(Date.now() - started).toBeLessThan(1000);

    await sendAll(url, ['after the stop']);
    // Time let pass on purpose: a stopped poller must hand nothing more to the handler.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(deliveries).toEqual([]);
    // fauxqs may still hand the message to the abandoned poll (it does not watch for the client
    // going away): then it comes back after the queue's visibility timeout of 1 s, as on SQS.
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 3 }),
    );
    expect(Messages.map((message) => message.Body)).toEqual(['after the stop']);
  });
});
