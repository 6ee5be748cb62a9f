/**
 * An in-memory SQS for the local host and the tests. It speaks the protocol the current
 * @aws-sdk/client-sqs speaks (AWS JSON 1.0: `POST /`, `x-amz-target: AmazonSQS.<Operation>`, errors
 * as `{"__type": "com.amazonaws.sqs#<Shape>", "message"}` with the `x-amzn-query-error` header that
 * the client's query-compatible mode reads), because no emulator on npm does.
 *
 * Standard queues only, with the semantics the service relies on: visibility timeout, receive
 * count, redrive to a dead-letter queue, per-queue and per-message delay, retention, long polling,
 * and receipt handles that change on every receive. Not implemented: FIFO queues, tags,
 * permissions, message move tasks, KMS. Authentication is not checked. It counts the requests
 * each queue gets, by operation (`GET /__request-counts`), for the benchmarks: SQS bills per request.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const localAccountId = '000000000000';

/** The URL the stand-in gives a queue; the same origin as its endpoint, as the SDK requires. */
export const localQueueUrl = (endpoint: string, queueName: string) =>
  `${endpoint}/${localAccountId}/${queueName}`;

export interface RunningSqs {
  endpoint: string;
  region: string;
  /** Answers pending long polls (with no messages), then closes the server. */
  stop(): Promise<void>;
}

export async function startSqsStandIn(options: { port?: number; region?: string } = {}): Promise<RunningSqs> {
  const region = options.region ?? 'eu-west-1';
  const service = new SqsService(region);
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const server = createServer((request, response) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    void service.handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.endpoint = endpoint;
  return {
    endpoint,
    region,
    stop: async () => {
      service.close();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, 2000).unref();
        });
      }
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An error in the shape the SDK turns into its modelled exception classes. */
class SqsError extends Error {
  constructor(
    /** The error shape of the SQS model (`__type`). */
    readonly shape: string,
    message: string,
    readonly status = 400,
    /** The code of the legacy query protocol, which the SDK matches first. */
    readonly queryCode = shape,
  ) {
    super(message);
  }
}

const queueDoesNotExist = () =>
  new SqsError(
    'QueueDoesNotExist',
    'The specified queue does not exist.',
    400,
    'AWS.SimpleQueueService.NonExistentQueue',
  );
const invalidParameter = (message: string) =>
  new SqsError('InvalidParameterValue', message, 400, 'InvalidParameterValue');
const invalidReceiptHandle = (handle: string, why = 'is not a valid receipt handle') =>
  new SqsError('ReceiptHandleIsInvalid', `The input receipt handle "${handle}" ${why}.`, 404);

// SQS's own limits.
const maxBatchEntries = 10;
const maxDelaySeconds = 900;
const maxVisibilityTimeoutSeconds = 43_200;
const maxWaitTimeSeconds = 20;
const maxMessageAttributes = 10;

interface AttributeRule {
  min: number;
  max: number;
  defaultValue: number;
}

/** The numeric queue attributes, with SQS's ranges and defaults. */
const numericAttributes: Record<string, AttributeRule> = {
  VisibilityTimeout: { min: 0, max: maxVisibilityTimeoutSeconds, defaultValue: 30 },
  DelaySeconds: { min: 0, max: maxDelaySeconds, defaultValue: 0 },
  MessageRetentionPeriod: { min: 60, max: 1_209_600, defaultValue: 345_600 },
  MaximumMessageSize: { min: 1024, max: 1_048_576, defaultValue: 1_048_576 },
  ReceiveMessageWaitTimeSeconds: { min: 0, max: maxWaitTimeSeconds, defaultValue: 0 },
};

/** Accepted and returned as given, without effect here. */
const storedAttributes = new Set([
  'Policy',
  'RedriveAllowPolicy',
  'SqsManagedSseEnabled',
  'KmsMasterKeyId',
  'KmsDataKeyReusePeriodSeconds',
]);

const messageSystemAttributes = [
  'SenderId',
  'SentTimestamp',
  'ApproximateReceiveCount',
  'ApproximateFirstReceiveTimestamp',
  'DeadLetterQueueSourceArn',
] as const;

interface MessageAttributeValue {
  DataType: string;
  StringValue?: string;
  BinaryValue?: string;
  /** Reserved by SQS and refused, as SQS refuses them. */
  StringListValues?: unknown[];
  BinaryListValues?: unknown[];
}

interface StoredMessage {
  id: string;
  body: string;
  md5OfBody: string;
  attributes: Record<string, MessageAttributeValue>;
  md5OfAttributes: string | undefined;
  /** Kept when redriven: retention counts from the first enqueue, as on SQS. */
  sentAt: number;
  /** Visible from this time; before it, delayed (never received) or in flight (received). */
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt: number | undefined;
  receiptHandle: string | undefined;
  deadLetterSourceArn: string | undefined;
}

interface RedrivePolicy {
  deadLetterTargetArn: string;
  maxReceiveCount: number;
}

class Queue {
  readonly arn: string;
  readonly createdAt = Date.now();
  lastModifiedAt = this.createdAt;
  /** In arrival order; a standard queue's order is best-effort, so oldest first is fair. */
  readonly messages = new Map<string, StoredMessage>();
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly url: string,
    region: string,
    readonly attributes: Map<string, string>,
  ) {
    this.arn = `arn:aws:sqs:${region}:${localAccountId}:${name}`;
  }

  number(name: keyof typeof numericAttributes): number {
    return Number(this.attributes.get(name) ?? numericAttributes[name]?.defaultValue);
  }

  redrivePolicy(): RedrivePolicy | undefined {
    const policy = this.attributes.get('RedrivePolicy');
    return policy ? (JSON.parse(policy) as RedrivePolicy) : undefined;
  }

  dropExpired(now: number): void {
    const retentionMs = this.number('MessageRetentionPeriod') * 1000;
    for (const [id, message] of this.messages) {
      if (message.sentAt + retentionMs <= now) this.messages.delete(id);
    }
  }

  /** The next time a delayed or in-flight message becomes visible. */
  nextVisibleAt(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const message of this.messages.values()) {
      if (message.visibleAt > now && message.visibleAt < next) next = message.visibleAt;
    }
    return next;
  }

  /** Resolves when something may have become receivable, or after `ms`. */
  changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
    });
  }

  notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

type Input = Record<string, unknown>;

/** `GET` on the endpoint at this path answers how many requests each queue got, by operation. */
export const requestCountsPath = '/__request-counts';

class SqsService {
  endpoint = '';
  private readonly queues = new Map<string, Queue>();
  /** Queue name → operation → requests, failed ones included: SQS bills those too. */
  private readonly requestCounts = new Map<string, Map<string, number>>();
  private closed = false;

  constructor(private readonly region: string) {}

  close(): void {
    this.closed = true;
    for (const queue of this.queues.values()) queue.notify();
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const gone = new AbortController();
    response.once('close', () => gone.abort());
    try {
      if (request.method === 'GET' && request.url === requestCountsPath) {
        reply(response, 200, requestId, this.countsByQueue());
        return;
      }
      const target = request.headers['x-amz-target'];
      const operation = typeof target === 'string' ? target.replace(/^AmazonSQS\./, '') : '';
      if (request.method !== 'POST' || !target?.includes('AmazonSQS.'))
        throw new SqsError('UnsupportedOperation', 'Only AWS JSON 1.0 requests are understood.');
      const input = await readJson(request);
      this.count(input, operation);
      const output = await this.dispatch(operation, input, gone.signal);
      if (gone.signal.aborted) return;
      reply(response, 200, requestId, output);
    } catch (error) {
      if (!(error instanceof SqsError)) console.error('[sqs] unexpected error:', error);
      const sqsError =
        error instanceof SqsError ? error : new SqsError('InternalError', 'Internal error', 500);
      response.setHeader(
        'x-amzn-query-error',
        `${sqsError.queryCode};${sqsError.status < 500 ? 'Sender' : 'Receiver'}`,
      );
      reply(response, sqsError.status, requestId, {
        __type: `com.amazonaws.sqs#${sqsError.shape}`,
        message: sqsError.message,
      });
    }
  }

  private count(input: Input, operation: string): void {
    const queue =
      typeof input.QueueUrl === 'string'
        ? (input.QueueUrl.split('/').pop() ?? '')
        : typeof input.QueueName === 'string'
          ? input.QueueName
          : '';
    const counts = this.requestCounts.get(queue) ?? new Map<string, number>();
    counts.set(operation, (counts.get(operation) ?? 0) + 1);
    this.requestCounts.set(queue, counts);
  }

  private countsByQueue(): Record<string, Record<string, number>> {
    return Object.fromEntries(
      [...this.requestCounts].map(([queue, counts]) => [queue, Object.fromEntries(counts)]),
    );
  }

  private dispatch(operation: string, input: Input, gone: AbortSignal): unknown {
    switch (operation) {
      case 'CreateQueue':
        return this.createQueue(input);
      case 'GetQueueUrl':
        return { QueueUrl: this.queueByName(requiredString(input, 'QueueName')).url };
      case 'ListQueues':
        return this.listQueues(input);
      case 'DeleteQueue':
        this.queues.delete(this.queueOf(input).name);
        return {};
      case 'GetQueueAttributes':
        return this.getQueueAttributes(input);
      case 'SetQueueAttributes':
        return this.setQueueAttributes(input);
      case 'PurgeQueue':
        this.queueOf(input).messages.clear();
        return {};
      case 'SendMessage':
        return this.sendMessage(this.queueOf(input), input);
      case 'SendMessageBatch':
        return this.sendMessageBatch(input);
      case 'ReceiveMessage':
        return this.receiveMessage(input, gone);
      case 'DeleteMessage':
        this.deleteMessage(this.queueOf(input), requiredString(input, 'ReceiptHandle'));
        return {};
      case 'DeleteMessageBatch': {
        const queue = this.queueOf(input);
        return batch(input, (entry) => this.deleteMessage(queue, requiredString(entry, 'ReceiptHandle')));
      }
      case 'ChangeMessageVisibility':
        this.changeVisibility(this.queueOf(input), input);
        return {};
      case 'ChangeMessageVisibilityBatch': {
        const queue = this.queueOf(input);
        return batch(input, (entry) => this.changeVisibility(queue, entry));
      }
      default:
        throw new SqsError(
          'UnsupportedOperation',
          `The SQS stand-in does not implement ${operation || 'this operation'}.`,
          400,
          'AWS.SimpleQueueService.UnsupportedOperation',
        );
    }
  }

  private queueByName(name: string): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw queueDoesNotExist();
    return queue;
  }

  private queueOf(input: Input): Queue {
    const url = requiredString(input, 'QueueUrl');
    const name = url.split('/').pop() ?? '';
    const queue = this.queueByName(name);
    queue.dropExpired(Date.now());
    return queue;
  }

  private createQueue(input: Input) {
    const name = requiredString(input, 'QueueName');
    if (!/^[\w-]{1,80}$/.test(name)) {
      throw invalidParameter(
        name.endsWith('.fifo')
          ? 'The SQS stand-in has standard queues only.'
          : 'Queue names are 1 to 80 letters, digits, hyphens and underscores.',
      );
    }
    const attributes = this.validAttributes(stringMap(input.Attributes, 'Attributes'));
    const existing = this.queues.get(name);
    if (existing) {
      for (const [key, value] of attributes) {
        if (existing.attributes.get(key) !== value) {
          throw new SqsError(
            'QueueNameExists',
            `A queue already exists with the same name and a different value for attribute ${key}`,
            400,
            'QueueAlreadyExists',
          );
        }
      }
      return { QueueUrl: existing.url };
    }
    const queue = new Queue(name, localQueueUrl(this.endpoint, name), this.region, attributes);
    this.queues.set(name, queue);
    return { QueueUrl: queue.url };
  }

  private validAttributes(given: Record<string, string>): Map<string, string> {
    const valid = new Map<string, string>();
    for (const [name, value] of Object.entries(given)) {
      const rule = numericAttributes[name];
      if (rule) {
        const number = Number(value);
        if (!/^\d+$/.test(value) || number < rule.min || number > rule.max)
          throw invalidAttributeValue(name, `must be an integer from ${rule.min} to ${rule.max}`);
        valid.set(name, String(number));
      } else if (name === 'RedrivePolicy') {
        if (value !== '') valid.set(name, this.validRedrivePolicy(value));
      } else if (storedAttributes.has(name)) {
        valid.set(name, value);
      } else {
        throw new SqsError('InvalidAttributeName', `Unknown Attribute ${name}.`);
      }
    }
    return valid;
  }

  private validRedrivePolicy(value: string): string {
    let policy: Partial<RedrivePolicy>;
    try {
      policy = JSON.parse(value) as Partial<RedrivePolicy>;
    } catch {
      throw invalidAttributeValue('RedrivePolicy', 'is not JSON');
    }
    const maxReceiveCount = Number(policy.maxReceiveCount);
    if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1 || maxReceiveCount > 1000)
      throw invalidAttributeValue('RedrivePolicy', 'maxReceiveCount must be an integer from 1 to 1000');
    const target = [...this.queues.values()].find((queue) => queue.arn === policy.deadLetterTargetArn);
    if (!target) throw invalidAttributeValue('RedrivePolicy', 'Dead letter target does not exist');
    return JSON.stringify({ deadLetterTargetArn: target.arn, maxReceiveCount });
  }

  private listQueues(input: Input) {
    const prefix = optionalString(input, 'QueueNamePrefix') ?? '';
    const maxResults = optionalInteger(input, 'MaxResults', 1, 1000);
    const start = Number(optionalString(input, 'NextToken') ?? 0);
    const urls = [...this.queues.values()]
      .filter((queue) => queue.name.startsWith(prefix))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((queue) => queue.url);
    if (maxResults === undefined) return urls.length ? { QueueUrls: urls } : {};
    const page = urls.slice(start, start + maxResults);
    const next = start + maxResults < urls.length ? { NextToken: String(start + maxResults) } : {};
    return page.length ? { QueueUrls: page, ...next } : {};
  }

  private getQueueAttributes(input: Input) {
    const queue = this.queueOf(input);
    const names = stringList(input.AttributeNames, 'AttributeNames');
    if (names.length === 0) return {};
    const now = Date.now();
    const messages = [...queue.messages.values()];
    const inFlight = messages.filter((m) => m.visibleAt > now && m.receiveCount > 0).length;
    const delayed = messages.filter((m) => m.visibleAt > now && m.receiveCount === 0).length;
    const all: Record<string, string> = {
      QueueArn: queue.arn,
      ApproximateNumberOfMessages: String(messages.length - inFlight - delayed),
      ApproximateNumberOfMessagesNotVisible: String(inFlight),
      ApproximateNumberOfMessagesDelayed: String(delayed),
      CreatedTimestamp: String(Math.floor(queue.createdAt / 1000)),
      LastModifiedTimestamp: String(Math.floor(queue.lastModifiedAt / 1000)),
      ...Object.fromEntries(
        Object.entries(numericAttributes).map(([name, rule]) => [
          name,
          queue.attributes.get(name) ?? String(rule.defaultValue),
        ]),
      ),
      SqsManagedSseEnabled: 'true',
      ...Object.fromEntries(queue.attributes),
    };
    if (names.includes('All')) return { Attributes: all };
    const chosen: Record<string, string> = {};
    for (const name of names) {
      const known = name in all || name === 'RedrivePolicy' || storedAttributes.has(name);
      if (!known) throw new SqsError('InvalidAttributeName', `Unknown Attribute ${name}.`);
      const value = all[name];
      if (value !== undefined) chosen[name] = value;
    }
    return { Attributes: chosen };
  }

  private setQueueAttributes(input: Input) {
    const queue = this.queueOf(input);
    const given = stringMap(input.Attributes, 'Attributes');
    const valid = this.validAttributes(given);
    if (given.RedrivePolicy === '') queue.attributes.delete('RedrivePolicy');
    for (const [name, value] of valid) queue.attributes.set(name, value);
    queue.lastModifiedAt = Date.now();
    // A shorter delay can make messages receivable sooner.
    queue.notify();
    return {};
  }

  private sendMessage(queue: Queue, input: Input) {
    const body = requiredString(input, 'MessageBody');
    if (body === '') throw invalidParameter('The request must contain the parameter MessageBody.');
    if (!validMessageCharacters.test(body))
      throw new SqsError('InvalidMessageContents', 'Invalid characters found in the message body.');
    const attributes = messageAttributes(input.MessageAttributes);
    const size = Buffer.byteLength(body) + attributesSize(attributes);
    if (size > queue.number('MaximumMessageSize')) {
      throw invalidParameter(
        `One or more parameters are invalid. Reason: Message must be shorter than ${queue.number('MaximumMessageSize')} bytes.`,
      );
    }
    const delaySeconds =
      optionalInteger(input, 'DelaySeconds', 0, maxDelaySeconds) ?? queue.number('DelaySeconds');
    const now = Date.now();
    const message: StoredMessage = {
      id: randomUUID(),
      body,
      md5OfBody: md5Hex(body),
      attributes,
      md5OfAttributes: Object.keys(attributes).length ? md5OfMessageAttributes(attributes) : undefined,
      sentAt: now,
      visibleAt: now + delaySeconds * 1000,
      receiveCount: 0,
      firstReceivedAt: undefined,
      receiptHandle: undefined,
      deadLetterSourceArn: undefined,
    };
    queue.messages.set(message.id, message);
    // Waiting receivers either take it now or recompute when the next message becomes visible;
    // without this, a delayed message sent during a long poll waits out the whole poll.
    queue.notify();
    return {
      MessageId: message.id,
      MD5OfMessageBody: message.md5OfBody,
      ...(message.md5OfAttributes ? { MD5OfMessageAttributes: message.md5OfAttributes } : {}),
    };
  }

  private sendMessageBatch(input: Input) {
    const queue = this.queueOf(input);
    const entries = batchEntries(input);
    const total = entries.reduce(
      (sum, entry) =>
        sum +
        Buffer.byteLength(typeof entry.MessageBody === 'string' ? entry.MessageBody : '') +
        attributesSize(messageAttributesOrEmpty(entry.MessageAttributes)),
      0,
    );
    if (total > queue.number('MaximumMessageSize')) {
      throw new SqsError(
        'BatchRequestTooLong',
        'Batch requests cannot be longer than the queue maximum message size.',
        400,
        'AWS.SimpleQueueService.BatchRequestTooLong',
      );
    }
    return batch(input, (entry) => this.sendMessage(queue, entry));
  }

  private async receiveMessage(input: Input, gone: AbortSignal) {
    const queue = this.queueOf(input);
    const maxMessages = optionalInteger(input, 'MaxNumberOfMessages', 1, maxBatchEntries) ?? 1;
    const visibilityTimeout =
      optionalInteger(input, 'VisibilityTimeout', 0, maxVisibilityTimeoutSeconds) ??
      queue.number('VisibilityTimeout');
    const waitSeconds =
      optionalInteger(input, 'WaitTimeSeconds', 0, maxWaitTimeSeconds) ??
      queue.number('ReceiveMessageWaitTimeSeconds');
    const systemNames = [
      ...stringList(input.AttributeNames, 'AttributeNames'),
      ...stringList(input.MessageSystemAttributeNames, 'MessageSystemAttributeNames'),
    ];
    const attributeFilter = stringList(input.MessageAttributeNames, 'MessageAttributeNames');

    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      if (gone.aborted) return {};
      const now = Date.now();
      const received = this.take(queue, maxMessages, visibilityTimeout, now);
      if (received.length > 0) {
        return {
          Messages: received.map((message) => toWireMessage(message, systemNames, attributeFilter)),
        };
      }
      if (now >= deadline || this.closed) return {};
      await queue.changed(Math.min(deadline, queue.nextVisibleAt(now)) - now);
    }
  }

  /** Receives up to `max` visible messages, moving those past their receive limit to the DLQ. */
  private take(queue: Queue, max: number, visibilityTimeout: number, now: number): StoredMessage[] {
    const redrive = queue.redrivePolicy();
    const deadLetters = redrive
      ? [...this.queues.values()].find((candidate) => candidate.arn === redrive.deadLetterTargetArn)
      : undefined;
    const received: StoredMessage[] = [];
    for (const message of queue.messages.values()) {
      if (received.length === max) break;
      if (message.visibleAt > now) continue;
      // On SQS the move happens when a receive would exceed maxReceiveCount, not when it is reached.
      if (redrive && deadLetters && message.receiveCount >= redrive.maxReceiveCount) {
        queue.messages.delete(message.id);
        message.receiptHandle = undefined;
        message.deadLetterSourceArn = queue.arn;
        message.visibleAt = now;
        deadLetters.messages.set(message.id, message);
        deadLetters.notify();
        continue;
      }
      message.receiveCount++;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + visibilityTimeout * 1000;
      message.receiptHandle = Buffer.from(
        `${queue.name}\n${message.id}\n${randomBytes(12).toString('hex')}`,
      ).toString('base64url');
      received.push(message);
    }
    return received;
  }

  /**
   * Finds the message a receipt handle was issued for. A handle from an earlier receive is valid
   * but stale: as on SQS, deleting with it succeeds without deleting anything.
   */
  private messageFor(queue: Queue, handle: string): { message?: StoredMessage; current: boolean } {
    const [queueName, messageId, nonce] = Buffer.from(handle, 'base64url').toString('utf8').split('\n');
    if (queueName !== queue.name || !messageId || !nonce) throw invalidReceiptHandle(handle);
    const message = queue.messages.get(messageId);
    return { message, current: message?.receiptHandle === handle };
  }

  private deleteMessage(queue: Queue, handle: string): void {
    const { message, current } = this.messageFor(queue, handle);
    if (message && current) queue.messages.delete(message.id);
  }

  private changeVisibility(queue: Queue, input: Input): void {
    const handle = requiredString(input, 'ReceiptHandle');
    const timeout = optionalInteger(input, 'VisibilityTimeout', 0, maxVisibilityTimeoutSeconds);
    if (timeout === undefined)
      throw invalidParameter('The request must contain the parameter VisibilityTimeout.');
    const { message, current } = this.messageFor(queue, handle);
    if (!message || !current) throw invalidReceiptHandle(handle, 'has expired');
    const now = Date.now();
    if (message.visibleAt <= now) {
      throw new SqsError(
        'MessageNotInflight',
        'Message does not exist or is not available for visibility timeout change.',
        400,
        'AWS.SimpleQueueService.MessageNotInflight',
      );
    }
    message.visibleAt = now + timeout * 1000;
    if (timeout === 0) queue.notify();
  }
}

// --- Messages on the wire ----------------------------------------------------------------------

function toWireMessage(message: StoredMessage, systemNames: string[], attributeFilter: string[]) {
  const system: Record<string, string | undefined> = {
    SenderId: localAccountId,
    SentTimestamp: String(message.sentAt),
    ApproximateReceiveCount: String(message.receiveCount),
    ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
    DeadLetterQueueSourceArn: message.deadLetterSourceArn,
  };
  const wanted = systemNames.includes('All')
    ? messageSystemAttributes
    : messageSystemAttributes.filter((name) => systemNames.includes(name));
  const attributes = Object.fromEntries(
    wanted.flatMap((name) => (system[name] === undefined ? [] : [[name, system[name]]])),
  );
  const selected = Object.fromEntries(
    Object.entries(message.attributes).filter(([name]) =>
      attributeFilter.some(
        (filter) =>
          filter === 'All' ||
          filter === '.*' ||
          filter === name ||
          (filter.endsWith('.*') && name.startsWith(filter.slice(0, -1))),
      ),
    ),
  );
  return {
    MessageId: message.id,
    ReceiptHandle: message.receiptHandle,
    MD5OfBody: message.md5OfBody,
    Body: message.body,
    ...(Object.keys(attributes).length ? { Attributes: attributes } : {}),
    ...(message.md5OfAttributes ? { MD5OfMessageAttributes: message.md5OfAttributes } : {}),
    ...(Object.keys(selected).length ? { MessageAttributes: selected } : {}),
  };
}

/** The characters SQS accepts in a message body. */
const validMessageCharacters = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

const md5Hex = (data: string | Buffer) => createHash('md5').update(data).digest('hex');

function messageAttributes(value: unknown): Record<string, MessageAttributeValue> {
  const attributes = messageAttributesOrEmpty(value);
  const names = Object.keys(attributes);
  if (names.length > maxMessageAttributes)
    throw invalidParameter(
      `Number of message attributes [${names.length}] exceeds the allowed maximum [10].`,
    );
  for (const [name, attribute] of Object.entries(attributes)) {
    const type = attribute?.DataType;
    if (typeof type !== 'string' || !/^(String|Number|Binary)(\..+)?$/.test(type))
      throw invalidParameter(`The message attribute '${name}' has an invalid message attribute type.`);
    const isBinary = type.startsWith('Binary');
    const value = isBinary ? attribute.BinaryValue : attribute.StringValue;
    if (typeof value !== 'string' || attribute.StringListValues?.length || attribute.BinaryListValues?.length)
      throw invalidParameter(
        `The message attribute '${name}' must contain a non-empty value of type '${type}'.`,
      );
  }
  return attributes;
}

function messageAttributesOrEmpty(value: unknown): Record<string, MessageAttributeValue> {
  return value && typeof value === 'object' ? (value as Record<string, MessageAttributeValue>) : {};
}

function attributesSize(attributes: Record<string, MessageAttributeValue>): number {
  let size = 0;
  for (const [name, attribute] of Object.entries(attributes)) {
    const value = attribute.BinaryValue
      ? Buffer.from(attribute.BinaryValue, 'base64').length
      : Buffer.byteLength(attribute.StringValue ?? '');
    size += Buffer.byteLength(name) + Buffer.byteLength(attribute.DataType) + value;
  }
  return size;
}

/**
 * SQS's digest of message attributes: for each attribute in name order, the name, the data type,
 * a transport byte (1 string, 2 binary) and the value, each length-prefixed (4 bytes, big-endian).
 */
export function md5OfMessageAttributes(attributes: Record<string, MessageAttributeValue>): string {
  const parts: Buffer[] = [];
  const withLength = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    parts.push(length, bytes);
  };
  const names = Object.keys(attributes).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const name of names) {
    const attribute = attributes[name] as MessageAttributeValue;
    withLength(Buffer.from(name));
    withLength(Buffer.from(attribute.DataType));
    if (attribute.DataType.startsWith('Binary')) {
      parts.push(Buffer.from([2]));
      withLength(Buffer.from(attribute.BinaryValue ?? '', 'base64'));
    } else {
      parts.push(Buffer.from([1]));
      withLength(Buffer.from(attribute.StringValue ?? ''));
    }
  }
  return md5Hex(Buffer.concat(parts));
}

// --- Batches ----------------------------------------------------------------------------------

function batchEntries(input: Input): Input[] {
  const entries = input.Entries;
  if (!Array.isArray(entries) || entries.length === 0)
    throw new SqsError(
      'EmptyBatchRequest',
      'There should be at least one SendMessageBatchRequestEntry in the request.',
      400,
      'AWS.SimpleQueueService.EmptyBatchRequest',
    );
  if (entries.length > maxBatchEntries)
    throw new SqsError(
      'TooManyEntriesInBatchRequest',
      `Maximum number of entries per request are ${maxBatchEntries}. You have sent ${entries.length}.`,
      400,
      'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
    );
  const ids = new Set<string>();
  for (const entry of entries as Input[]) {
    const id = entry?.Id;
    if (typeof id !== 'string' || !/^[\w-]{1,80}$/.test(id))
      throw new SqsError(
        'InvalidBatchEntryId',
        'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.',
        400,
        'AWS.SimpleQueueService.InvalidBatchEntryId',
      );
    if (ids.has(id))
      throw new SqsError(
        'BatchEntryIdsNotDistinct',
        `Id ${id} repeated.`,
        400,
        'AWS.SimpleQueueService.BatchEntryIdsNotDistinct',
      );
    ids.add(id);
  }
  return entries as Input[];
}

/** Runs `each` per entry; an entry's error is reported in `Failed` and does not stop the others. */
function batch(input: Input, each: (entry: Input) => unknown) {
  const Successful: object[] = [];
  const Failed: object[] = [];
  for (const entry of batchEntries(input)) {
    try {
      Successful.push({ Id: entry.Id, ...(each(entry) as object | undefined) });
    } catch (error) {
      if (!(error instanceof SqsError)) throw error;
      Failed.push({
        Id: entry.Id,
        SenderFault: error.status < 500,
        Code: error.queryCode,
        Message: error.message,
      });
    }
  }
  return { Successful, Failed };
}

// --- Input --------------------------------------------------------------------------------------

function invalidAttributeValue(name: string, why: string) {
  return new SqsError('InvalidAttributeValue', `Invalid value for the parameter ${name}: ${why}.`);
}

function requiredString(input: Input, name: string): string {
  const value = input[name];
  if (typeof value !== 'string')
    throw new SqsError('MissingParameter', `The request must contain the parameter ${name}.`);
  return value;
}

function optionalString(input: Input, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidParameter(`Value for parameter ${name} is invalid.`);
  return value;
}

function optionalInteger(input: Input, name: string, min: number, max: number): number | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidParameter(
      `Value ${String(value)} for parameter ${name} is invalid. Reason: Must be between ${min} and ${max}, if provided.`,
    );
  }
  return value;
}

function stringList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw invalidParameter(`Value for parameter ${name} is invalid.`);
  return value as string[];
}

function stringMap(value: unknown, name: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Object.values(value).some((item) => typeof item !== 'string'))
    throw invalidParameter(`Value for parameter ${name} is invalid.`);
  return value as Record<string, string>;
}

async function readJson(request: IncomingMessage): Promise<Input> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const parsed: unknown = text === '' ? {} : JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Input;
  } catch {
    // Answered below, as SQS answers a body that is not a JSON object.
  }
  throw new SqsError('SerializationException', 'The request body is not a JSON object.');
}

function reply(response: ServerResponse, status: number, requestId: string, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'x-amzn-requestid': requestId,
  });
  response.end(JSON.stringify(body));
}
