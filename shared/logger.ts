import { AsyncLocalStorage } from 'node:async_hooks';
import { LogFormatter, Logger, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

/**
 * The API Gateway request id (`x-amzn-RequestId`) of the request being handled. Kept per
 * asynchronous context rather than in the logger's own keys: the local host runs many requests at
 * once in one process, and a key set on the shared logger would land on another request's lines.
 */
const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `work` as part of the request `requestId`: every log line it writes carries `request_id`. */
export const inRequest = <T>(requestId: string, work: () => T): T => requestScope.run({ requestId }, work);

/** Powertools' standard log item, with the request id of the request being handled, when there is one. */
class RequestLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additionalLogAttributes: LogAttributes): LogItem {
    const requestId = requestScope.getStore()?.requestId;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        ...(requestId ? { request_id: requestId } : {}),
        cold_start: attributes.lambdaContext?.coldStart,
        function_arn: attributes.lambdaContext?.invokedFunctionArn,
        function_memory_size: attributes.lambdaContext?.memoryLimitInMB,
        function_name: attributes.lambdaContext?.functionName,
        function_request_id: attributes.lambdaContext?.awsRequestId,
        sampling_rate: attributes.sampleRateValue,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additionalLogAttributes);
  }
}

/** One structured logger per container; lines written while handling a request carry its id. */
export const logger = new Logger({
  serviceName: 'partner-payments',
  logFormatter: new RequestLogFormatter(),
});
