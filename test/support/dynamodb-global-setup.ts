import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';

/** One in-memory DynamoDB Local for the whole integration run; each test file makes its own table. */
export default async function setup(project: TestProject) {
  const dynamodb = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}
