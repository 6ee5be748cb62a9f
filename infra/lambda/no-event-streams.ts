/**
 * Replaces `@smithy/core/event-streams` in the Lambda bundles (infra/bundling.ts). The SDK loads it
 * with a dynamic import only for operations that stream events; none of the clients the service
 * uses (DynamoDB, SQS, KMS, Secrets Manager) has such an operation, yet esbuild, which does not
 * split bundles, inlined its ~15 KB into every one. Reaching it would be a bug, said loudly.
 */
const unused = (): never => {
  throw new Error('Event streams are left out of the Lambda bundles: no client of the service uses them');
};

export class EventStreamSerde {
  constructor() {
    unused();
  }
}

export const eventStreamSerdeProvider = unused;
