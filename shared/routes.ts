/**
 * The route table: every HTTP route of the service, once. The CDK stack turns each entry into an
 * API Gateway method and one Lambda function with exactly the AWS access listed; the local host
 * dispatches requests to the same handlers; the handler wrapper checks the caller kind from here.
 * Pure data, so handlers can import it without pulling in CDK or the local host.
 */

/** Who may call a route. */
export type CallerKind =
  /** Any API key of a business with API access: merchant, platform, or platform scoped to a store. */
  | 'api_key'
  /** A platform key only (whole business or scoped to one store). */
  | 'platform_key'
  /** Any API key of a business that is a service provider. */
  | 'service_provider'
  /** No API key: hosted pages, provider callbacks. */
  | 'public';

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
   * sender sets per attempt; the 4th failure is the last (the redrive then parks the message).
   * The sender may wait 30 s on a receiver, so its timeout is 40 s and the visibility timeout
   * six times that, as Lambda advises.
   */
  webhooks: { visibilityTimeoutSeconds: 240, maxReceiveCount: 4 },
  /**
   * One message per SMS to hand to the gateway. A gateway call takes well under a second; the
   * sender gets 10 s and the visibility timeout six times that. The 4th failed attempt fails the
   * message and gives its segments back.
   */
  sms: { visibilityTimeoutSeconds: 60, maxReceiveCount: 4 },
  /** Delivery events of sent SMS: from AWS's configuration set (via SNS), or the sandbox gateway. */
  smsEvents: { visibilityTimeoutSeconds: 60, maxReceiveCount: 4 },
} as const satisfies Record<string, QueueDefinition>;

export type QueueName = keyof typeof queues;

/** The environment variable that gives a function the URL of a queue it may send to. */
export const queueUrlVariable = (queue: QueueName) =>
  `QUEUE_URL_${queue.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;

/** What a function may touch in AWS; the stack grants exactly this. */
export type AwsAccess =
  | 'table:read'
  | 'table:write'
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
  /** Publish to soundbox devices' topics (`soundbox/*`) through the IoT data plane. */
  | 'device:push'
  /** The credentials of the live providers the stage routes to (none where it routes to none). */
  | 'secret:providers'
  /**
   * Creating and deleting the one-time EventBridge Scheduler schedules that end escrow holds: the
   * stage's schedule group only, and passing the role Scheduler invokes the expiry function with.
   */
  | 'schedule:escrowExpiry';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  readonly method: HttpMethod;
  /** API Gateway path template, `{name}` for a path parameter. */
  readonly path: string;
  /** Entry file, relative to the project root. It exports `handler`. */
  readonly handler: string;
  readonly caller: CallerKind;
  readonly access: readonly AwsAccess[];
  /** Test helpers and the sandbox provider: on sandbox stages and the local host only. */
  readonly sandboxOnly?: boolean;
  /**
   * Files of installed packages the handler reads at run time (`package/path`), copied beside the
   * function's bundle: the reference page's viewer, which is served, not bundled.
   */
  readonly files?: readonly string[];
}

/** A function fed by a queue, in batches, reporting partial batch failures. */
export interface Worker {
  readonly handler: string;
  readonly queue: QueueName;
  readonly batchSize: number;
  readonly access: readonly AwsAccess[];
  readonly sandboxOnly?: boolean;
}

/*
 * The routes come in groups so that a handler imports its own group, not the whole table: a
 * bundle carries only what it imports, and the table is ~14 KB minified. `routes` below is the
 * one table CDK and the local host read.
 */

/** Stores and their devices. */
export const storeRoutes = {
  listStores: {
    method: 'GET',
    path: '/partner_api/stores',
    handler: 'functions/stores/list-stores.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  getStoreBalance: {
    method: 'GET',
    path: '/partner_api/stores/{storeId}/balance',
    handler: 'functions/stores/get-store-balance.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  listDevices: {
    method: 'GET',
    path: '/partner_api/devices',
    handler: 'functions/devices/list-devices.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
} as const satisfies Record<string, Route>;

/** Payment requests. */
export const paymentRequestRoutes = {
  createPaymentRequest: {
    // The sandbox queue exists only on sandbox stages; production gets no grant for it.
    method: 'POST',
    path: '/partner_api/payment_requests',
    handler: 'functions/payment-requests/create-payment-request.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'device:push', 'secret:providers'],
  },
  getPaymentRequest: {
    method: 'GET',
    path: '/partner_api/payment_requests/{id}',
    handler: 'functions/payment-requests/get-payment-request.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
} as const satisfies Record<string, Route>;

/** Payment links and their hosted page. */
export const paymentLinkRoutes = {
  createPaymentLink: {
    method: 'POST',
    path: '/partner_api/payment_links',
    handler: 'functions/payment-links/create-payment-link.ts',
    caller: 'api_key',
    access: ['table:write'],
  },
  getPaymentLink: {
    method: 'GET',
    path: '/partner_api/payment_links/{id}',
    handler: 'functions/payment-links/get-payment-link.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  paySandboxPaymentLink: {
    method: 'POST',
    path: '/sandbox/payment_links/{id}/pay',
    handler: 'functions/sandbox/pay-payment-link.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'secret:sandboxProvider'],
    sandboxOnly: true,
  },
  linkPage: {
    method: 'GET',
    path: '/pl/{id}',
    handler: 'functions/pages/link-page.ts',
    caller: 'public',
    access: ['table:read'],
  },
  submitLinkPage: {
    method: 'POST',
    path: '/pl/{id}',
    handler: 'functions/pages/submit-link-page.ts',
    caller: 'public',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'secret:providers'],
  },
} as const satisfies Record<string, Route>;

/** The transaction list. */
export const transactionRoutes = {
  listTransactions: {
    method: 'GET',
    path: '/partner_api/transactions',
    handler: 'functions/transactions/list-transactions.ts',
    caller: 'api_key',
    // Writes only the listing's snapshot instant (shared/data/list-snapshot.ts).
    access: ['table:write'],
  },
} as const satisfies Record<string, Route>;

/** Collections completed by their provider. */
export const providerCallbackRoutes = {
  receiveProviderCallback: {
    // Sends the webhooks of the payment it completes at once; the outbox sweeper is the fallback.
    method: 'POST',
    path: '/provider_callbacks/{provider}',
    handler: 'functions/provider-callbacks/receive-provider-callback.ts',
    caller: 'public',
    access: [
      'table:write',
      'secret:sandboxProvider',
      'queue:send:webhooks',
      'device:push',
      'secret:providers',
      // A payment held in escrow gets the schedule that ends its hold.
      'schedule:escrowExpiry',
    ],
  },
  /** MTN MoMo calls back with PUT as often as POST (its callback guide asks for both). */
  receiveProviderCallbackPut: {
    method: 'PUT',
    path: '/provider_callbacks/{provider}',
    handler: 'functions/provider-callbacks/receive-provider-callback.ts',
    caller: 'public',
    access: [
      'table:write',
      'secret:sandboxProvider',
      'queue:send:webhooks',
      'device:push',
      'secret:providers',
      // A payment held in escrow gets the schedule that ends its hold.
      'schedule:escrowExpiry',
    ],
  },
} as const satisfies Record<string, Route>;

/** The hosted payment page and the sandbox provider's own steps. */
export const paymentPageRoutes = {
  approveSandboxPaymentRequest: {
    method: 'POST',
    path: '/sandbox/payment_requests/{id}/approve',
    handler: 'functions/sandbox/approve-payment-request.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'secret:sandboxProvider'],
    sandboxOnly: true,
  },
  declineSandboxPaymentRequest: {
    method: 'POST',
    path: '/sandbox/payment_requests/{id}/decline',
    handler: 'functions/sandbox/decline-payment-request.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'secret:sandboxProvider'],
    sandboxOnly: true,
  },
  paymentPage: {
    method: 'GET',
    path: '/payment/{id}',
    handler: 'functions/pages/payment-page.ts',
    caller: 'public',
    access: ['table:read'],
  },
  submitPaymentPage: {
    method: 'POST',
    path: '/payment/{id}',
    handler: 'functions/pages/submit-payment-page.ts',
    caller: 'public',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'secret:providers'],
  },
  paymentReturnPage: {
    method: 'GET',
    path: '/payment/{id}/return',
    handler: 'functions/pages/payment-return-page.ts',
    caller: 'public',
    access: ['table:read'],
  },
  sandboxCheckoutPage: {
    method: 'GET',
    path: '/sandbox/provider/checkout/{providerReference}',
    handler: 'functions/sandbox/checkout-page.ts',
    caller: 'public',
    access: ['table:read'],
    sandboxOnly: true,
  },
  sandboxCheckoutAction: {
    method: 'POST',
    path: '/sandbox/provider/checkout/{providerReference}',
    handler: 'functions/sandbox/checkout-action.ts',
    caller: 'public',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'secret:sandboxProvider'],
    sandboxOnly: true,
  },
} as const satisfies Record<string, Route>;

/** Webhook subscriptions and deliveries. */
export const webhookRoutes = {
  listWebhookSubscriptions: {
    method: 'GET',
    path: '/partner_api/service_providers/business_webhook_subscriptions',
    handler: 'functions/service-providers/list-webhook-subscriptions.ts',
    caller: 'service_provider',
    access: ['table:read'],
  },
  createWebhookSubscription: {
    method: 'POST',
    path: '/partner_api/service_providers/business_webhook_subscriptions',
    handler: 'functions/service-providers/create-webhook-subscription.ts',
    caller: 'service_provider',
    access: ['table:write', 'key:webhookSecrets:encrypt'],
  },
  deleteWebhookSubscription: {
    method: 'DELETE',
    path: '/partner_api/service_providers/business_webhook_subscriptions/{subscriptionId}',
    handler: 'functions/service-providers/delete-webhook-subscription.ts',
    caller: 'service_provider',
    access: ['table:write'],
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/partner_api/webhook_deliveries',
    handler: 'functions/webhook-deliveries/list-webhook-deliveries.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  resendWebhookDelivery: {
    method: 'POST',
    path: '/partner_api/webhook_deliveries/{id}/resend',
    handler: 'functions/webhook-deliveries/resend-webhook-delivery.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:webhooks'],
  },
} as const satisfies Record<string, Route>;

/** Contacts. */
export const contactRoutes = {
  listContacts: {
    method: 'GET',
    path: '/partner_api/contacts',
    handler: 'functions/contacts/list-contacts.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  createContact: {
    method: 'POST',
    path: '/partner_api/contacts',
    handler: 'functions/contacts/create-contact.ts',
    caller: 'api_key',
    access: ['table:write'],
  },
  deleteContact: {
    method: 'DELETE',
    path: '/partner_api/contacts/{id}',
    handler: 'functions/contacts/delete-contact.ts',
    caller: 'api_key',
    access: ['table:write'],
  },
} as const satisfies Record<string, Route>;

/** Transfers (payouts) and their callbacks. */
export const transferRoutes = {
  createTransfer: {
    // Sends the webhook of a transfer between stores (or one refused at once) right away.
    method: 'POST',
    path: '/partner_api/transfers',
    handler: 'functions/transfers/create-transfer.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'queue:send:webhooks', 'secret:providers'],
  },
  getTransfer: {
    method: 'GET',
    path: '/partner_api/transfers/{id}',
    handler: 'functions/transfers/get-transfer.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  receivePayoutCallback: {
    // API Gateway wants one name for the path variable under a resource: {provider}, as above,
    // though a bank payout's is `bank`.
    method: 'POST',
    path: '/provider_callbacks/{provider}/payouts',
    handler: 'functions/provider-callbacks/receive-payout-callback.ts',
    caller: 'public',
    access: ['table:write', 'secret:sandboxProvider', 'queue:send:webhooks', 'secret:providers'],
  } /** MTN MoMo calls back with PUT as often as POST (its callback guide asks for both). */,
  receivePayoutCallbackPut: {
    method: 'PUT',
    path: '/provider_callbacks/{provider}/payouts',
    handler: 'functions/provider-callbacks/receive-payout-callback.ts',
    caller: 'public',
    access: ['table:write', 'secret:sandboxProvider', 'queue:send:webhooks', 'secret:providers'],
  },

  completeSandboxTransfer: {
    method: 'POST',
    path: '/sandbox/transfers/{id}/complete',
    handler: 'functions/sandbox/complete-transfer.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'secret:sandboxProvider'],
    sandboxOnly: true,
  },
  failSandboxTransfer: {
    method: 'POST',
    path: '/sandbox/transfers/{id}/fail',
    handler: 'functions/sandbox/fail-transfer.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'secret:sandboxProvider'],
    sandboxOnly: true,
  },
} as const satisfies Record<string, Route>;

/** SMS messages. */
export const messageRoutes = {
  sendMessage: {
    method: 'POST',
    path: '/partner_api/messages',
    handler: 'functions/messages/send-message.ts',
    caller: 'api_key',
    access: ['table:write', 'queue:send:sms'],
  },
  listMessages: {
    method: 'GET',
    path: '/partner_api/messages',
    handler: 'functions/messages/list-messages.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
  // Before getMessage: the local host tries routes in order, and `account` would match `{id}`.
  getMessageAccount: {
    method: 'GET',
    path: '/partner_api/messages/account',
    handler: 'functions/messages/get-message-account.ts',
    caller: 'api_key',
    // The account is created with zero balances on first read.
    access: ['table:write'],
  },
  getMessage: {
    method: 'GET',
    path: '/partner_api/messages/{id}',
    handler: 'functions/messages/get-message.ts',
    caller: 'api_key',
    access: ['table:read'],
  },
} as const satisfies Record<string, Route>;

/** Escrows. */
export const escrowRoutes = {
  listEscrows: {
    method: 'GET',
    path: '/partner_api/escrows',
    handler: 'functions/escrows/list-escrows.ts',
    caller: 'platform_key',
    access: ['table:read'],
  },
  releaseEscrow: {
    // Sends ESCROW_RELEASED at once; the outbox sweeper is the fallback.
    method: 'POST',
    path: '/partner_api/escrows/{id}/release',
    handler: 'functions/escrows/release-escrow.ts',
    caller: 'platform_key',
    access: ['table:write', 'queue:send:webhooks', 'schedule:escrowExpiry'],
  },
  refundEscrow: {
    // Beyond the interface: pays a held escrow back to the payer through the provider's payout.
    method: 'POST',
    path: '/partner_api/escrows/{id}/refund',
    handler: 'functions/escrows/refund-escrow.ts',
    caller: 'platform_key',
    access: ['table:write', 'queue:send:sandboxCallbacks', 'queue:send:webhooks', 'secret:providers'],
  },
} as const satisfies Record<string, Route>;

/** The reference: the OpenAPI document and its page. */
export const referenceRoutes = {
  openApiDocument: {
    method: 'GET',
    path: '/openapi.json',
    handler: 'functions/reference/get-openapi-document.ts',
    caller: 'public',
    access: [],
  },
  referencePage: {
    method: 'GET',
    path: '/docs',
    handler: 'functions/reference/reference-page.ts',
    caller: 'public',
    access: [],
  },
  referencePageAsset: {
    method: 'GET',
    path: '/docs/assets/{file}',
    handler: 'functions/reference/reference-page-asset.ts',
    caller: 'public',
    access: [],
    files: ['swagger-ui-dist/swagger-ui-bundle.js', 'swagger-ui-dist/swagger-ui.css'],
  },
} as const satisfies Record<string, Route>;

/** Service providers and the businesses they onboard. */
export const serviceProviderRoutes = {
  listActivities: {
    method: 'GET',
    path: '/partner_api/service_providers/activities',
    handler: 'functions/service-providers/list-activities.ts',
    caller: 'service_provider',
    access: ['table:read'],
  },
  onboardBusiness: {
    method: 'POST',
    path: '/partner_api/service_providers/business_onboarding',
    handler: 'functions/service-providers/onboard-business.ts',
    caller: 'service_provider',
    access: ['table:write'],
  },
  listBusinessLinks: {
    method: 'GET',
    path: '/partner_api/service_providers/business_links',
    handler: 'functions/service-providers/list-business-links.ts',
    caller: 'service_provider',
    access: ['table:read'],
  },
  detachBusinessLink: {
    method: 'DELETE',
    path: '/partner_api/service_providers/business_links/{merchantBusinessId}',
    handler: 'functions/service-providers/detach-business-link.ts',
    caller: 'service_provider',
    access: ['table:write'],
  },
  createMerchantApiKey: {
    method: 'POST',
    path: '/partner_api/service_providers/business_api_keys',
    handler: 'functions/service-providers/create-merchant-api-key.ts',
    caller: 'service_provider',
    access: ['table:write'],
  },
} as const satisfies Record<string, Route>;

/** Link requests: a provider asks to act for an existing business. */
export const linkRequestRoutes = {
  createLinkRequests: {
    // Sends the owner's code by SMS and the `pending` event to the provider at once.
    method: 'POST',
    path: '/partner_api/service_providers/business_link_requests',
    handler: 'functions/service-providers/create-link-requests.ts',
    caller: 'service_provider',
    access: ['table:write', 'queue:send:sms', 'queue:send:webhooks'],
  },
  getLinkRequest: {
    // Writes: a request past its time is settled `expired` when read, and its event sent.
    method: 'GET',
    path: '/partner_api/service_providers/business_link_requests/{id}',
    handler: 'functions/service-providers/get-link-request.ts',
    caller: 'service_provider',
    access: ['table:write', 'queue:send:webhooks'],
  },
  linkRequestPage: {
    method: 'GET',
    path: '/lr/{id}',
    handler: 'functions/pages/link-request-page.ts',
    caller: 'public',
    access: ['table:write', 'queue:send:webhooks'],
  },
  submitLinkRequestPage: {
    method: 'POST',
    path: '/lr/{id}',
    handler: 'functions/pages/submit-link-request-page.ts',
    caller: 'public',
    access: ['table:write', 'queue:send:webhooks'],
  },
  approveSandboxLinkRequest: {
    method: 'POST',
    path: '/sandbox/business_link_requests/{id}/approve',
    handler: 'functions/sandbox/approve-link-request.ts',
    caller: 'service_provider',
    access: ['table:write', 'queue:send:webhooks'],
    sandboxOnly: true,
  },
  declineSandboxLinkRequest: {
    method: 'POST',
    path: '/sandbox/business_link_requests/{id}/decline',
    handler: 'functions/sandbox/decline-link-request.ts',
    caller: 'service_provider',
    access: ['table:write', 'queue:send:webhooks'],
    sandboxOnly: true,
  },
} as const satisfies Record<string, Route>;

/** Compliance verification. */
export const complianceRoutes = {
  createComplianceVerification: {
    method: 'POST',
    path: '/partner_api/service_providers/compliance_verifications',
    handler: 'functions/service-providers/create-compliance-verification.ts',
    caller: 'service_provider',
    access: ['table:write'],
  },
  sandboxVerificationPage: {
    method: 'GET',
    path: '/sandbox/kyc/{id}',
    handler: 'functions/sandbox/verification-page.ts',
    caller: 'public',
    access: ['table:read'],
    sandboxOnly: true,
  },
  submitSandboxVerificationPage: {
    method: 'POST',
    path: '/sandbox/kyc/{id}',
    handler: 'functions/sandbox/submit-verification-page.ts',
    caller: 'public',
    access: ['table:write', 'queue:send:webhooks'],
    sandboxOnly: true,
  },
} as const satisfies Record<string, Route>;

/**
 * Every route: what the stack deploys and the local host serves, in this order. Made in a call
 * marked pure because esbuild keeps a bare object spread even where nothing reads it (a spread may
 * run a getter), which would put every group back into every bundle.
 */
export const routes = /* @__PURE__ */ (() => ({
  ...storeRoutes,
  ...paymentRequestRoutes,
  ...paymentLinkRoutes,
  ...transactionRoutes,
  ...providerCallbackRoutes,
  ...paymentPageRoutes,
  ...webhookRoutes,
  ...contactRoutes,
  ...transferRoutes,
  ...messageRoutes,
  ...escrowRoutes,
  ...referenceRoutes,
  ...serviceProviderRoutes,
  ...linkRequestRoutes,
  ...complianceRoutes,
}))() satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;

// The entry lists are marked pure so that a bundle importing one group or `queues` leaves them,
// and so the whole table, out.
export const routeEntries = /* @__PURE__ */ Object.entries(routes) as [RouteName, Route][];

export const workers = {
  sendSandboxCallbacks: {
    handler: 'functions/workers/send-sandbox-callbacks.ts',
    queue: 'sandboxCallbacks',
    batchSize: 10,
    access: ['table:read', 'secret:sandboxProvider'],
    sandboxOnly: true,
  },
  sendWebhooks: {
    handler: 'functions/workers/send-webhooks.ts',
    queue: 'webhooks',
    batchSize: 10,
    access: ['table:write', 'key:webhookSecrets:decrypt'],
  },
  sendSms: {
    handler: 'functions/workers/send-sms.ts',
    queue: 'sms',
    batchSize: 10,
    access: ['table:write', 'sms:send'],
  },
  recordSmsEvents: {
    handler: 'functions/workers/record-sms-events.ts',
    queue: 'smsEvents',
    batchSize: 10,
    access: ['table:write'],
  },
} as const satisfies Record<string, Worker>;

export type WorkerName = keyof typeof workers;

export const workerEntries = /* @__PURE__ */ Object.entries(workers) as [WorkerName, Worker][];

/**
 * A function fed by the table's stream (new and old images): on AWS an event source mapping that
 * passes only the changes `filter` matches, retries a failing record (bisecting its batch) and
 * then hands it to an on-failure queue; on the local host a poller of DynamoDB Local's stream.
 */
export interface StreamConsumer {
  readonly handler: string;
  readonly batchSize: number;
  /** Lambda event filter patterns over the stream record: a record matching any one is passed. */
  readonly filters: readonly Record<string, unknown>[];
  readonly access: readonly AwsAccess[];
  readonly sandboxOnly?: boolean;
}

export const streamConsumers = {
  /**
   * Payment requests leaving `pending`: their webhook, if the completing function did not send it.
   * Messages recorded `pending`: a delayed copy of their `sms` queue message, if the recording
   * function did not queue them. One consumer for both: a shard's stream allows only two readers.
   */
  dispatchTableChanges: {
    handler: 'functions/workers/dispatch-table-changes.ts',
    batchSize: 100,
    filters: [
      {
        eventName: ['MODIFY'],
        dynamodb: {
          OldImage: { entity: { S: ['payment_request'] }, status: { S: ['pending'] } },
          NewImage: { status: { S: ['success', 'error'] } },
        },
      },
      {
        eventName: ['INSERT'],
        dynamodb: { NewImage: { entity: { S: ['message'] }, status: { S: ['pending'] } } },
      },
    ],
    access: ['table:write', 'queue:send:webhooks', 'queue:send:sms'],
  },
} as const satisfies Record<string, StreamConsumer>;

export type StreamConsumerName = keyof typeof streamConsumers;

export const streamConsumerEntries = /* @__PURE__ */ Object.entries(streamConsumers) as [
  StreamConsumerName,
  StreamConsumer,
][];

/** A function run on a timer (an EventBridge rule on AWS, a timer on the local host). */
export interface Schedule {
  readonly handler: string;
  /** An EventBridge schedule expression: `rate(1 minute)`, `cron(...)`. */
  readonly expression: string;
  readonly access: readonly AwsAccess[];
  readonly sandboxOnly?: boolean;
}

export const schedules = {
  /** Sends the outbox events that did not reach the webhook queue right after their change. */
  sweepOutbox: {
    handler: 'functions/workers/sweep-outbox.ts',
    expression: 'rate(1 minute)',
    access: ['table:write', 'queue:send:webhooks'],
  },
  /** Asks the provider about payouts whose callback never came, and settles those it has an answer for. */
  sweepPendingTransfers: {
    handler: 'functions/workers/sweep-pending-transfers.ts',
    expression: 'rate(1 minute)',
    access: ['table:write', 'queue:send:webhooks', 'secret:providers'],
  },
  /** Asks the live providers about collections whose callback never came, with backoff, to a bound. */
  sweepPendingCollections: {
    handler: 'functions/workers/sweep-pending-collections.ts',
    expression: 'rate(1 minute)',
    access: ['table:write', 'queue:send:webhooks', 'secret:providers', 'schedule:escrowExpiry'],
  },
  /** Sends again the device pushes (QR, announcement) that failed when first sent. */
  sweepDevicePushes: {
    handler: 'functions/workers/sweep-device-pushes.ts',
    expression: 'rate(1 minute)',
    access: ['table:write', 'device:push'],
  },
  /**
   * Held escrows past their time whose one-time schedule was lost (its creation failed, or it was
   * deleted by hand): their hold ends here instead.
   */
  sweepEscrows: {
    handler: 'functions/workers/sweep-escrows.ts',
    expression: 'rate(5 minutes)',
    access: ['table:write', 'queue:send:webhooks', 'queue:send:sandboxCallbacks', 'secret:providers'],
  },
} as const satisfies Record<string, Schedule>;

export type ScheduleName = keyof typeof schedules;

export const scheduleEntries = /* @__PURE__ */ Object.entries(schedules) as [ScheduleName, Schedule][];

/** A function EventBridge Scheduler invokes from one-time schedules the service creates. */
export interface ScheduleTarget {
  readonly handler: string;
  readonly access: readonly AwsAccess[];
  readonly sandboxOnly?: boolean;
}

export const scheduleTargets = {
  /** Ends one escrow's hold at its `holdUntil`: `{"escrowId": ...}` in, onExpiry applied once. */
  expireEscrow: {
    handler: 'functions/workers/expire-escrow.ts',
    access: ['table:write', 'queue:send:webhooks', 'queue:send:sandboxCallbacks', 'secret:providers'],
  },
} as const satisfies Record<string, ScheduleTarget>;

export type ScheduleTargetName = keyof typeof scheduleTargets;

export const scheduleTargetEntries = /* @__PURE__ */ Object.entries(scheduleTargets) as [
  ScheduleTargetName,
  ScheduleTarget,
][];

/**
 * A function invoked by IoT rules on messages of the devices' broker: on AWS an IoT topic rule per
 * SQL statement, on the local host the embedded broker calling the handler with the same payload.
 */
export interface DeviceRule {
  readonly handler: string;
  /** IoT SQL (2016-03-23), one rule each. */
  readonly sql: readonly string[];
  readonly access: readonly AwsAccess[];
  /** Devices exist on every stage: never set, here for the shape every function entry shares. */
  readonly sandboxOnly?: false;
}

export const deviceRules = {
  /** Heartbeats on `soundbox/<id>/status` and the broker's connect/disconnect lifecycle events. */
  recordDevicePresence: {
    handler: 'functions/devices/record-device-presence.ts',
    sql: [
      "SELECT *, topic(2) AS deviceId, timestamp() AS receivedAt FROM 'soundbox/+/status' WHERE type = 'heartbeat'",
      "SELECT clientId, eventType, timestamp FROM '$aws/events/presence/+/+'",
    ],
    access: ['table:write'],
  },
} as const satisfies Record<string, DeviceRule>;

export type DeviceRuleName = keyof typeof deviceRules;

export const deviceRuleEntries = /* @__PURE__ */ Object.entries(deviceRules) as [
  DeviceRuleName,
  DeviceRule,
][];

/**
 * Every function of the stack, whatever starts it: routes, workers, stream consumers, schedules,
 * schedule targets and device rules.
 */
export const functionEntries = /* @__PURE__ */ (() => [
  ...routeEntries,
  ...workerEntries,
  ...streamConsumerEntries,
  ...scheduleEntries,
  ...scheduleTargetEntries,
  ...deviceRuleEntries,
])();
