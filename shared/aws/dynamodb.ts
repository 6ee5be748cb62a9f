import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traced } from '#shared/aws/tracing.ts';

/**
 * One DynamoDB client per container. The endpoint comes from the standard AWS_ENDPOINT_URL_DYNAMODB
 * variable when it is set (the local host, the tests), so nothing here knows where it runs.
 */
export const dynamodb = traced(new DynamoDBClient({}));

export const documentClient = DynamoDBDocumentClient.from(dynamodb, {
  marshallOptions: { removeUndefinedValues: true },
});

export function tableName(): string {
  const name = process.env.TABLE_NAME;
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
}
