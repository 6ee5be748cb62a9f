import type { FunctionDeclaration } from '#shared/catalogue/access.ts';
import { type Located, locatedIn } from '#shared/catalogue/entry-files.ts';
import type { QueueName } from '#shared/catalogue/queues.ts';

/** A function fed by a queue, in batches, reporting partial batch failures. */
export interface Worker extends FunctionDeclaration {
  readonly queue: QueueName;
  readonly batchSize: number;
}

/** Each in `functions/workers/`. */
export const workers = /* @__PURE__ */ locatedIn('workers', {
  sendSandboxCallbacks: {
    queue: 'sandboxCallbacks',
    batchSize: 10,
    access: ['table:GetItem', 'secret:sandboxProvider'],
    sandboxOnly: true,
  },
  sendWebhooks: {
    queue: 'webhooks',
    batchSize: 10,
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'key:webhookSecrets:decrypt'],
  },
  sendSms: {
    queue: 'sms',
    batchSize: 10,
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'table:DeleteItem', 'sms:send'],
  },
  recordSmsEvents: {
    queue: 'smsEvents',
    batchSize: 10,
    access: ['table:UpdateItem'],
  },
  /** Ends unpaid payment requests at their expiry: the webhook, the soundbox's QR taken off. */
  expirePaymentRequests: {
    queue: 'paymentExpiry',
    batchSize: 10,
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'queue:send:paymentExpiry', 'device:push'],
  },
} satisfies Record<string, Worker>);

export type WorkerName = keyof typeof workers;

export const workerEntries = /* @__PURE__ */ Object.entries(workers) as [WorkerName, Worker & Located][];
