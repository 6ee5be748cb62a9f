import type { QueueName } from '#shared/catalogue/queues.ts';

/**
 * The DynamoDB actions a function may be granted on the table, one by one: each function names
 * those its code uses and no others (test/infra/function-bundles.test.ts reads every function's
 * bundle and holds the two equal). A transaction's items are authorized by their kinds (PutItem,
 * UpdateItem, DeleteItem, ConditionCheckItem); `Query` covers the indexes the table declares.
 */
export const tableActions = [
  'GetItem',
  'Query',
  'BatchGetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'ConditionCheckItem',
  'BatchWriteItem',
  'Scan',
] as const;
export type TableAction = (typeof tableActions)[number];

/** What a function may touch in AWS; the stack grants exactly this, and nothing else. */
export type AwsAccess =
  | `table:${TableAction}`
  | `queue:send:${QueueName}`
  /** The key the sandbox provider signs callbacks with (sandbox stages only). */
  | 'secret:sandboxProvider'
  /**
   * Sending SMS through the stage's gateway: `sms-voice:SendTextMessage` on production; on sandbox
   * stages, sending the sandbox gateway's delivery events to the `smsEvents` queue.
   */
  | 'sms:send'
  /** The KMS key of webhook signing secrets: encrypt a new one, or decrypt one to sign with. */
  | 'key:webhookSecrets:encrypt'
  | 'key:webhookSecrets:decrypt'
  /** Publish to the stage's soundbox topics (`<stage>/soundbox/*`) through the IoT data plane. */
  | 'device:push'
  /**
   * The credentials of the live providers the stage routes to (none where it routes to none): each
   * of them, as the payment method, and so the provider, is known only per request.
   */
  | 'secret:providers'
  /**
   * The credentials of the routed providers that call back about payouts (MTN MoMo, whose callbacks
   * are confirmed by asking it): Wave sends no payout event, so its key is not among them.
   */
  | 'secret:providers:payoutCallbacks'
  /**
   * Smile ID's partner id and API key, on a stage whose identity vendor is Smile ID (none where it
   * is the sandbox's): the functions that submit an owner's details or read its result.
   */
  | 'secret:identity'
  /**
   * Creating and deleting the one-time EventBridge Scheduler schedules that end escrow holds: the
   * stage's schedule group only, and passing the role Scheduler invokes the expiry function with.
   */
  | 'schedule:escrowExpiry';

/*
 * The access sets several functions share, named for the work that needs them. The sandbox queue
 * and secret exist only on sandbox stages: production grants neither, whatever a set lists. The
 * table's actions are each function's own (beside these sets in its declaration), but for the two
 * shapes many share: reading items and queries, and that with puts and updates.
 */

export const readsTable = ['table:GetItem', 'table:Query'] as const satisfies readonly AwsAccess[];
export const writesTable = [
  ...readsTable,
  'table:PutItem',
  'table:UpdateItem',
] as const satisfies readonly AwsAccess[];

/**
 * Queues a webhook delivery itself (a re-send, a test event): every other event leaves from the
 * table's stream, whose consumer alone queues it.
 */
export const sendsWebhooks = ['queue:send:webhooks'] as const satisfies readonly AwsAccess[];

/** Starts a collection at the payer's provider: a live one, or the sandbox's delayed callback. */
export const startsCollections = [
  'queue:send:sandboxCallbacks',
  'secret:providers',
] as const satisfies readonly AwsAccess[];

/** Plays the sandbox provider's part: its signed callback, sent now or queued for later. */
export const playsSandboxProvider = [
  'queue:send:sandboxCallbacks',
  'secret:sandboxProvider',
] as const satisfies readonly AwsAccess[];

/**
 * Completes a collection from a provider's verified callback or status: the soundbox's
 * announcement, for a payment held in escrow the schedule that ends its hold, and for a collection
 * that came too late (an orphan) the payout that pays it back, asked at once.
 */
export const completesCollections = [
  'secret:sandboxProvider',
  'queue:send:sandboxCallbacks',
  'device:push',
  'secret:providers',
  'schedule:escrowExpiry',
] as const satisfies readonly AwsAccess[];

/**
 * Settles a payout from its provider's verified callback. The settlers' registry
 * (shared/settlement/payouts.ts) holds each kind's way of asking too, which a callback never
 * calls; its bundle carries the sandbox provider's queue client, granted here so the grant
 * matches the code (no provider secrets: nothing is asked of a provider).
 */
export const settlesPayouts = [
  'secret:sandboxProvider',
  'queue:send:sandboxCallbacks',
  'secret:providers:payoutCallbacks',
] as const satisfies readonly AwsAccess[];

/** Pays out through a provider (a transfer, an escrow paid back to its payer, a refund). */
export const paysOut = [
  'queue:send:sandboxCallbacks',
  'secret:providers',
] as const satisfies readonly AwsAccess[];

/** What every function of the stack declares, whatever starts it. */
export interface FunctionDeclaration {
  readonly access: readonly AwsAccess[];
  /** Exists only on sandbox stages (every stage but production) and on the local host. */
  readonly sandboxOnly?: boolean;
}
