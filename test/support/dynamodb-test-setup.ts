import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { ensureTable } from '#infra/local/create-table.ts';
import { useLocalAws } from '#infra/local/local-config.ts';

// Runs before each integration test file imports anything, so the shared AWS clients are built
// against DynamoDB Local. A table per file keeps files independent.
const tableName = `test-${randomUUID()}`;
useLocalAws({ dynamodb: inject('dynamodbEndpoint'), kms: inject('kmsEndpoint') }, tableName);
process.env.AUTH_CACHE_TTL_SECONDS = '0';
await ensureTable(new DynamoDBClient({}), tableName);
