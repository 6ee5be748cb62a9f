import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { PageEndpointName } from '#shared/api/all-endpoints.ts';
import type { PageEndpoint } from '#shared/api/endpoint.ts';
import { metricsPublished, normalizeHeaders } from '#shared/http/api-handler.ts';
import {
  downloadResponse,
  endpointNameOf,
  errorPages,
  type FieldsOf,
  formBody,
  formOf,
  htmlResponse,
  type PageEvent,
  type PageOptions,
  type PageRequest,
  type PageResult,
  pageLanguage,
  pageRequestOf,
  redirectResponse,
  requestIdOf,
} from '#shared/http/page-handler.ts';
import { inRequest, logger } from '#shared/logger.ts';

/**
 * A page whose answer may be a file streamed as it is made (the CSV export): Lambda response
 * streaming, behind an API Gateway integration in STREAM mode (the endpoint declares `streams`).
 * Everything but the file (the form, a redirect, an error page) is answered whole, through the
 * same middlewares as `pageHandler`; the file is piped to the response stream, so it is read only
 * as fast as the client takes it and never held whole.
 */
export interface StreamedFile {
  file: true;
  contentType: string;
  fileName: string;
  body: Readable;
  /** Runs once the file is sent or cut short (its audit entry, with what was sent). */
  after?: (outcome: { complete: boolean }) => Promise<void>;
}

/** What Lambda's Node.js runtime puts in `globalThis.awslambda` (and the local host's shim too). */
export interface ResponseStreamingRuntime {
  streamifyResponse<H extends StreamingHandler>(handler: H): H;
  HttpResponseStream: {
    from(stream: Writable, prelude: { statusCode: number; headers: Record<string, string> }): Writable;
  };
}

export type StreamingHandler = (
  event: APIGatewayProxyEvent,
  responseStream: Writable,
  context: Context,
) => Promise<void>;

/**
 * Lambda's runtime global, when it streams; absent outside Lambda unless the local host installed
 * its shim. Other libraries may make an `awslambda` of their own (an invoke store) without it.
 */
export const streamingRuntime = (): ResponseStreamingRuntime | undefined => {
  const global = (globalThis as { awslambda?: Partial<ResponseStreamingRuntime> }).awslambda;
  return typeof global?.streamifyResponse === 'function' && global.HttpResponseStream
    ? (global as ResponseStreamingRuntime)
    : undefined;
};

type Answer = APIGatewayProxyResult & { file?: StreamedFile };

export function streamedPageHandler<const E extends PageEndpointName | PageEndpoint>(
  endpoint: E,
  render: (request: PageRequest<FieldsOf<E>>) => Promise<PageResult | StreamedFile>,
  options: PageOptions = {},
) {
  const name = endpointNameOf(endpoint);
  const answer = middy<PageEvent, APIGatewayProxyResult, Error, Context>()
    .use(metricsPublished())
    .use(errorPages(name, options))
    .use(normalizeHeaders())
    .use(pageLanguage())
    .use(formBody(options.maxFormFieldChars))
    .handler(async (event, context): Promise<Answer> => {
      const result = await render(pageRequestOf(event, context, formOf(endpoint)));
      if ('file' in result) {
        const response = htmlResponse(200, '', {
          ...options.headers,
          'content-type': result.contentType,
          'content-disposition': `attachment; filename="${result.fileName}"`,
        });
        return { ...response, file: result };
      }
      if ('download' in result) return downloadResponse(result.download, options.headers);
      return 'redirect' in result
        ? redirectResponse(result.redirect, result.setCookie, options.headers)
        : htmlResponse(result.statusCode, result.html, options.headers);
    });

  const stream: StreamingHandler = (event, responseStream, context) =>
    inRequest(requestIdOf(event, context), async () => {
      const result: Answer = await answer(event, context);
      const out = runtime().HttpResponseStream.from(responseStream, {
        statusCode: result.statusCode,
        headers: (result.headers ?? {}) as Record<string, string>,
      });
      if (!result.file) {
        await pipeline(async function* () {
          yield result.body;
        }, out);
        return;
      }
      let complete = false;
      try {
        await pipeline(result.file.body, out);
        complete = true;
      } catch (error) {
        // Headers are gone: the file is cut short (the client sees a broken download, never a
        // complete-looking wrong one).
        logger.error('streamed file cut short', { error: error as Error, endpoint: name });
      } finally {
        await result.file.after?.({ complete });
      }
    });

  const installed = streamingRuntime();
  const handler = installed ? installed.streamifyResponse(stream) : stream;
  // Kept on the handler so a test can check each entry file serves its own endpoint.
  return Object.assign(handler, { endpointName: name, streams: true as const });
}

function runtime(): ResponseStreamingRuntime {
  const installed = streamingRuntime();
  if (!installed) throw new Error('No response streaming runtime (awslambda) in this process');
  return installed;
}
