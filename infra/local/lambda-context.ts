import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/**
 * The context Lambda hands a function, for handlers the local host calls in-process. The timeout
 * only sizes `getRemainingTimeInMillis`: locally nothing stops a function that runs over.
 */
export function lambdaContext(
  functionName: string,
  timeoutMs: number,
  awsRequestId: string = randomUUID(),
): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
