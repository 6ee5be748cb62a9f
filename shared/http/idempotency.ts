import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { dynamodb, tableName } from '#shared/aws/dynamodb.ts';
import { IdempotencyKeyInProgress, IdempotencyKeyReused, ValidationFailed } from '#shared/errors/request.ts';
import { JsonText } from '#shared/http/api-handler.ts';
import { illFormedText } from '#shared/http/validation.ts';

/** A replay within this time gets the first answer again. */
const replayWindowSeconds = 24 * 60 * 60;

let persistenceStore: DynamoDBPersistenceLayer | undefined;

/**
 * Records live in the single table. Powertools puts a constant in its partition key when a sort
 * key is used, which would send every record of the service to one partition; naming our sort key
 * as its "partition" attribute and our partition key as its "sort" attribute spreads them instead:
 * pk = <prefix>#<hash of business and key>, sk = IDEMPOTENCY.
 */
function store(): DynamoDBPersistenceLayer {
  persistenceStore ??= new DynamoDBPersistenceLayer({
    tableName: tableName(),
    keyAttr: 'sk',
    sortKeyAttr: 'pk',
    staticPkValue: 'IDEMPOTENCY',
    expiryAttr: 'ttl',
    awsSdkV3Client: dynamodb,
  });
  return persistenceStore;
}

export interface IdempotencyScope {
  /** The operation, so one key used on two endpoints does not collide. */
  operation: string;
  businessId: string;
  /** The Idempotency-Key header; without one the operation simply runs. */
  key: string | undefined;
  /** What must be the same for a replay: the parsed request body. */
  payload: unknown;
  context: Context;
}

/**
 * Runs `operation` at most once per (business, operation, key) within 24 hours: a replay with the
 * same body gets the first answer again, a replay with another body is refused (422
 * idempotency_key_reused), and a replay while the first still runs gets 409. Failures are not
 * remembered (Powertools deletes the record), so a retry after an error runs again.
 *
 * The answer is kept as the JSON text first sent, and a replay sends that text: kept as an object
 * it would be stored as a DynamoDB map, which does not keep the order of its keys, and a client
 * comparing or signing the bytes would see another answer.
 */
export async function idempotent(
  scope: IdempotencyScope,
  operation: () => Promise<unknown>,
): Promise<JsonText> {
  const serialized = async () => JSON.stringify(await operation());
  if (scope.key === undefined) return new JsonText(await serialized());
  if (scope.key.length < 1 || scope.key.length > 255 || illFormedText(scope.key).length > 0) {
    throw new ValidationFailed([
      {
        field: 'Idempotency-Key',
        rule: 'max',
        message: 'The Idempotency-Key header must be 1 to 255 characters of well-formed text.',
      },
    ]);
  }
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'payload',
    expiresAfterSeconds: replayWindowSeconds,
    throwOnNoIdempotencyKey: true,
  });
  config.registerLambdaContext(scope.context);
  const run = makeIdempotent(async (_input: { key: string; payload: unknown }) => serialized(), {
    persistenceStore: store(),
    config,
    keyPrefix: scope.operation,
  });
  try {
    return new JsonText(
      (await run({ key: `${scope.businessId}:${scope.key}`, payload: scope.payload })) as string,
    );
  } catch (error) {
    if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReused();
    if (error instanceof IdempotencyAlreadyInProgressError) throw new IdempotencyKeyInProgress();
    throw error;
  }
}
