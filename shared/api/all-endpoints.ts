import { activityEndpoints } from '#shared/api/activities.ts';
import { contactEndpoints } from '#shared/api/contacts.ts';
import { dashboardEndpoints } from '#shared/api/dashboard.ts';
import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardEscrowEndpoints } from '#shared/api/dashboard-escrows.ts';
import { dashboardExportEndpoints } from '#shared/api/dashboard-export.ts';
import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { dashboardPaymentRequestEndpoints } from '#shared/api/dashboard-payment-requests.ts';
import { dashboardSmsEndpoints } from '#shared/api/dashboard-sms.ts';
import { dashboardSoundboxEndpoints } from '#shared/api/dashboard-soundboxes.ts';
import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { dashboardTransactionEndpoints } from '#shared/api/dashboard-transactions.ts';
import { dashboardTransferEndpoints } from '#shared/api/dashboard-transfers.ts';
import { dashboardVerificationEndpoints } from '#shared/api/dashboard-verification.ts';
import { deviceEndpoints } from '#shared/api/devices.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { escrowEndpoints } from '#shared/api/escrows.ts';
import { messageEndpoints } from '#shared/api/messages.ts';
import { hostedPageEndpoints } from '#shared/api/pages.ts';
import { paymentLinkEndpoints } from '#shared/api/payment-links.ts';
import { paymentRequestEndpoints } from '#shared/api/payment-requests.ts';
import { providerCallbackEndpoints } from '#shared/api/provider-callbacks.ts';
import { referenceEndpoints } from '#shared/api/reference.ts';
import { refundEndpoints } from '#shared/api/refunds.ts';
import { sandboxLinkRequestEndpoints } from '#shared/api/sandbox-link-requests.ts';
import { sandboxPaymentEndpoints } from '#shared/api/sandbox-payments.ts';
import { sandboxRefundEndpoints } from '#shared/api/sandbox-refunds.ts';
import { sandboxTransferEndpoints } from '#shared/api/sandbox-transfers.ts';
import { serviceProviderEndpoints } from '#shared/api/service-providers.ts';
import { smsCreditEndpoints } from '#shared/api/sms-credit.ts';
import { statementEndpoints } from '#shared/api/statements.ts';
import { storeEndpoints } from '#shared/api/stores.ts';
import { transactionEndpoints } from '#shared/api/transactions.ts';
import { transferEndpoints } from '#shared/api/transfers.ts';
import { webhookDeliveryEndpoints } from '#shared/api/webhook-deliveries.ts';
import {
  ownWebhookSubscriptionEndpoints,
  webhookSubscriptionEndpoints,
} from '#shared/api/webhook-subscriptions.ts';
import { withdrawalEndpoints } from '#shared/api/withdrawals.ts';

/**
 * Every endpoint of the service, one capability at a time: what the stack deploys, the local host
 * serves and the reference describes, in this order. A new endpoint is declared in its capability's
 * module and appears here by itself; only a new capability adds a line. Made in a call marked pure
 * because esbuild keeps a bare object spread even where nothing reads it, which would put every
 * capability back into every bundle.
 */
export const endpoints = /* @__PURE__ */ (() => ({
  ...storeEndpoints,
  ...deviceEndpoints,
  ...paymentRequestEndpoints,
  ...paymentLinkEndpoints,
  ...transactionEndpoints,
  ...withdrawalEndpoints,
  ...smsCreditEndpoints,
  ...providerCallbackEndpoints,
  ...hostedPageEndpoints,
  ...dashboardEndpoints,
  ...dashboardTeamEndpoints,
  ...dashboardVerificationEndpoints,
  ...dashboardDeveloperEndpoints,
  ...dashboardPaymentLinkEndpoints,
  ...dashboardTransferEndpoints,
  ...dashboardExportEndpoints,
  ...dashboardPaymentRequestEndpoints,
  ...dashboardSmsEndpoints,
  ...dashboardTransactionEndpoints,
  ...dashboardEscrowEndpoints,
  ...dashboardSoundboxEndpoints,
  ...statementEndpoints,
  ...webhookSubscriptionEndpoints,
  ...ownWebhookSubscriptionEndpoints,
  ...webhookDeliveryEndpoints,
  ...contactEndpoints,
  ...transferEndpoints,
  ...refundEndpoints,
  ...messageEndpoints,
  ...escrowEndpoints,
  ...referenceEndpoints,
  ...activityEndpoints,
  ...serviceProviderEndpoints,
  ...sandboxPaymentEndpoints,
  ...sandboxTransferEndpoints,
  ...sandboxRefundEndpoints,
  ...sandboxLinkRequestEndpoints,
}))() satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;

export const endpointEntries = /* @__PURE__ */ Object.entries(endpoints) as [EndpointName, Endpoint][];

type NamesOf<Shape> = {
  [Name in EndpointName]: (typeof endpoints)[Name] extends Shape ? Name : never;
}[EndpointName];

/**
 * Pages and documents validate nothing: their entry files name their endpoint, checked by the
 * compiler, instead of importing a declaration whose schemas serve only the reference (and would
 * put zod in a payer's page function).
 */
export type PageEndpointName = NamesOf<{ readonly page: true }>;
export type DocumentEndpointName = NamesOf<{ readonly document: true }>;
