/**
 * The service's queues. Each gets a dead-letter queue that receives a message after
 * `maxReceiveCount` failed receives; the stack and the local host's SQS both build them
 * from here.
 */
export interface QueueDefinition {
  /** How long a received message stays invisible: longer than its worker's timeout. */
  readonly visibilityTimeoutSeconds: number;
  readonly maxReceiveCount: number;
  /** Exists only on sandbox stages (every stage but production) and on the local host. */
  readonly sandboxOnly?: boolean;
}

export const queues = {
  /** Callbacks the sandbox provider sends later, as a real provider does after the payer acts. */
  // A batch delivers its callbacks in parallel, each waiting up to 10 s for the service: the worker
  // gets 15 s, and the visibility timeout is six times that, as Lambda advises.
  sandboxCallbacks: { visibilityTimeoutSeconds: 90, maxReceiveCount: 4, sandboxOnly: true },
  /**
   * One message per (event, subscription). A failed delivery comes back after a backoff the
   * sender sets per attempt; attempts are counted in the delivery's record, and its 4th failure
   * is the last (shared/operations/webhook-send.ts). The redrive is a safety net only: twice the
   * attempts, so receives that never reached the sender (throttles, timeouts) do not park a
   * delivery that has attempts left. The sender may wait 30 s on a receiver, so its timeout is 40 s
   * and the visibility timeout six times that, as Lambda advises.
   */
  webhooks: { visibilityTimeoutSeconds: 240, maxReceiveCount: 8 },
  /**
   * One message per SMS to hand to the gateway. A gateway call takes well under a second; the
   * sender gets 10 s and the visibility timeout six times that. The 4th failed attempt fails the
   * message and gives its segments back.
   */
  sms: { visibilityTimeoutSeconds: 60, maxReceiveCount: 4 },
  /** Delivery events of sent SMS: from AWS's configuration set (via SNS), or the sandbox gateway. */
  smsEvents: { visibilityTimeoutSeconds: 60, maxReceiveCount: 4 },
  /**
   * One message per payment request, hidden until its expiry (a chain of messages beyond SQS's
   * 15-minute delay): the check that ends it unpaid. An expiry takes well under a second; the
   * worker gets 10 s.
   */
  paymentExpiry: { visibilityTimeoutSeconds: 60, maxReceiveCount: 4 },
} as const satisfies Record<string, QueueDefinition>;

export type QueueName = keyof typeof queues;

/** The environment variable that gives a function the URL of a queue it may send to. */
export const queueUrlVariable = (queue: QueueName) =>
  `QUEUE_URL_${queue.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;
