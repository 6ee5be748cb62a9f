import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { newLocalKeyMaterial, startKmsStandIn } from '#infra/local/kms.ts';

/**
 * One in-memory DynamoDB Local for the whole integration run (each test file makes its own
 * table), and one KMS stand-in for the webhook secrets.
 */
export default async function setup(project: TestProject) {
  const dynamodb = await startDynamoDbLocal();
  const kms = await startKmsStandIn({ keyMaterial: newLocalKeyMaterial() });
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  project.provide('kmsEndpoint', kms.endpoint);
  return async () => {
    await kms.stop();
    await dynamodb.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    kmsEndpoint: string;
  }
}
