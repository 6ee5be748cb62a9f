import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { ResponseStreamingRuntime } from '#shared/http/streamed-page-handler.ts';

/**
 * Lambda's response streaming on the laptop: the `awslambda` global the Node.js runtime provides
 * (`streamifyResponse`, `HttpResponseStream.from`), and a response stream that writes to the
 * Node http response as the handler writes, waiting for the socket to drain (the handler reads its
 * next page only when the client has taken the last), so the local host streams as API Gateway does.
 */
const streamingMark = Symbol.for('aws.lambda.runtime.handler.streaming');

export class LocalResponseStream extends Writable {
  constructor(private readonly response: ServerResponse) {
    super();
    // A client that hangs up stops the handler's pipeline: nothing more is read for it.
    response.once('close', () => {
      if (!response.writableFinished) this.destroy(new Error('The client closed the connection'));
    });
  }

  /** The status and headers, sent before the first byte of the body (the runtime's prelude). */
  begin(prelude: { statusCode: number; headers: Record<string, string> }): void {
    if (!this.response.headersSent) this.response.writeHead(prelude.statusCode, prelude.headers);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.response.write(chunk)) callback();
    else this.response.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.response.end(() => callback());
  }
}

const localRuntime: ResponseStreamingRuntime = {
  streamifyResponse: (handler) => Object.assign(handler, { [streamingMark]: 'response' }),
  HttpResponseStream: {
    from(stream, prelude) {
      (stream as LocalResponseStream).begin(prelude);
      return stream;
    },
  },
};

/** Installs the shim once, before any streaming handler is imported (they look for it then). */
export function installResponseStreaming(): void {
  // Other libraries may have made the global already (the invoke store): add to it.
  const global = globalThis as { awslambda?: Partial<ResponseStreamingRuntime> };
  global.awslambda ??= {};
  global.awslambda.streamifyResponse ??= localRuntime.streamifyResponse;
  global.awslambda.HttpResponseStream ??= localRuntime.HttpResponseStream;
}
