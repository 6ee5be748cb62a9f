import { Logger } from '@aws-lambda-powertools/logger';

/** One structured logger per container; the handler wrapper adds the request id to every line. */
export const logger = new Logger({ serviceName: 'partner-payments' });
