import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

/**
 * X-Ray subsegments for the calls a function makes (AWS SDK clients, providers' HTTP APIs), sent
 * the way the X-Ray SDK sends them: one UDP datagram per call to the daemon that Lambda runs beside
 * every function with active tracing, parented to the invocation's segment. Powertools Tracer does
 * the same through `aws-xray-sdk-core`, which measured 127 KB and ~72 ms of cold import on its own
 * (README, "Bundle size"); this is a few hundred bytes and nothing at import. Outside Lambda, or
 * when the invocation is not sampled, nothing is sent.
 */

/** The invocation's trace, from the variable the Lambda runtime sets for each invocation. */
interface Invocation {
  readonly traceId: string;
  readonly parentId: string;
}

function sampledInvocation(): Invocation | undefined {
  const header = process.env._X_AMZN_TRACE_ID;
  if (!header) return undefined;
  const fields = new Map(header.split(';').map((field) => field.split('=', 2) as [string, string]));
  const traceId = fields.get('Root');
  const parentId = fields.get('Parent');
  if (!traceId || !parentId || fields.get('Sampled') !== '1') return undefined;
  return { traceId, parentId };
}

/** `host:port`, or the `udp:host:port tcp:host:port` form; the daemon takes segments over UDP. */
function daemonAddress(): { host: string; port: number } | undefined {
  const setting = process.env.AWS_XRAY_DAEMON_ADDRESS;
  if (!setting) return undefined;
  const udp = setting.split(' ').find((part) => part.startsWith('udp:')) ?? setting;
  const match = /^(?:udp:)?([^:\s]+):(\d+)$/.exec(udp);
  return match?.[1] && match[2] ? { host: match[1], port: Number(match[2]) } : undefined;
}

let socket: Socket | undefined;

export interface CallRecord {
  /** What the service map shows: `DynamoDB`, `SQS`, or the provider's host. */
  readonly name: string;
  readonly namespace: 'aws' | 'remote';
  /** Seconds since the epoch, as X-Ray wants them. */
  readonly startTime: number;
  readonly endTime: number;
  /** The HTTP status answered, when one was. */
  readonly status?: number | undefined;
  /** Set when the call failed without an answer (timeout, connection refused). */
  readonly failed?: boolean;
  readonly aws?: Record<string, unknown>;
  readonly http?: { request: { method: string; url: string } };
}

/** Sends one subsegment; never throws, never waits: tracing must not fail or slow a request. */
export function recordCall(call: CallRecord): void {
  const invocation = sampledInvocation();
  const daemon = daemonAddress();
  if (!invocation || !daemon) return;
  const status = call.status;
  const subsegment = {
    id: randomBytes(8).toString('hex'),
    trace_id: invocation.traceId,
    parent_id: invocation.parentId,
    type: 'subsegment',
    name: call.name,
    namespace: call.namespace,
    start_time: call.startTime,
    end_time: call.endTime,
    ...(call.aws ? { aws: call.aws } : {}),
    http: { ...call.http, ...(status === undefined ? {} : { response: { status } }) },
    ...(call.failed || (status !== undefined && status >= 500) ? { fault: true } : {}),
    ...(status !== undefined && status >= 400 && status < 500 ? { error: true } : {}),
    ...(status === 429 ? { throttle: true } : {}),
  };
  socket ??= createSocket('udp4').unref();
  socket.send(
    `{"format":"json","version":1}\n${JSON.stringify(subsegment)}`,
    daemon.port,
    daemon.host,
    () => {
      // A lost datagram is a lost subsegment, as with the X-Ray SDK; the request goes on.
    },
  );
}

const seconds = () => Date.now() / 1000;

/**
 * Starts timing an outgoing HTTP call; calling the answer records it, with the status answered or,
 * without one, as failed. The URL is kept without its query string, where a token may travel.
 */
export function httpCall(method: string, url: URL): (status?: number) => void {
  const startTime = seconds();
  return (status) =>
    recordCall({
      name: url.host,
      namespace: 'remote',
      startTime,
      endTime: seconds(),
      status,
      failed: status === undefined,
      http: { request: { method, url: `${url.origin}${url.pathname}` } },
    });
}

interface ResponseMetadata {
  readonly $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number };
}

/** What every SDK v3 client has: its middleware stack. */
interface TracedClient {
  readonly middlewareStack: {
    add(
      middleware: (
        next: (args: unknown) => Promise<{ output: ResponseMetadata }>,
        context: { clientName?: string; commandName?: string },
      ) => (args: unknown) => Promise<{ output: ResponseMetadata }>,
      options: { step: 'initialize'; name: string },
    ): void;
  };
}

/**
 * Records every command of `client` (retries included) as a subsegment named after its service, as
 * the X-Ray SDK's `captureAWSv3Client` does. Answers the client, so it can wrap its construction.
 */
/* @__NO_SIDE_EFFECTS__ */
export function traced<C>(client: C): C {
  (client as unknown as TracedClient).middlewareStack.add(
    (next, context) => async (args) => {
      const startTime = seconds();
      const record = (metadata: ResponseMetadata['$metadata'], failed: boolean) =>
        recordCall({
          name: (context.clientName ?? 'AWS').replace(/Client$/, ''),
          namespace: 'aws',
          startTime,
          endTime: seconds(),
          status: metadata?.httpStatusCode,
          failed: failed && metadata?.httpStatusCode === undefined,
          aws: {
            operation: (context.commandName ?? '').replace(/Command$/, ''),
            region: process.env.AWS_REGION,
            request_id: metadata?.requestId,
            retries: Math.max(0, (metadata?.attempts ?? 1) - 1),
          },
        });
      try {
        const result = await next(args);
        record(result.output.$metadata, false);
        return result;
      } catch (error) {
        record((error as ResponseMetadata).$metadata, true);
        throw error;
      }
    },
    { step: 'initialize', name: 'xraySubsegment' },
  );
  return client;
}
