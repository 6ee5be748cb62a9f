import { contactContracts } from '#shared/schemas/contacts.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';
import { escrowContracts } from '#shared/schemas/escrows.ts';
import { messageContracts } from '#shared/schemas/messages.ts';
import { pageContracts } from '#shared/schemas/pages.ts';
import { paymentLinkContracts } from '#shared/schemas/payment-links.ts';
import { paymentRequestContracts } from '#shared/schemas/payment-requests.ts';
import { providerCallbackContracts } from '#shared/schemas/provider-callbacks.ts';
import { referenceContracts } from '#shared/schemas/reference.ts';
import { serviceProviderContracts } from '#shared/schemas/service-providers.ts';
import { storeContracts } from '#shared/schemas/stores.ts';
import { transactionContracts } from '#shared/schemas/transactions.ts';
import { payoutCallbackContracts, transferContracts } from '#shared/schemas/transfers.ts';
import { webhookDeliveryContracts } from '#shared/schemas/webhook-deliveries.ts';
import { webhookSubscriptionContracts } from '#shared/schemas/webhook-subscriptions.ts';

/**
 * Every route's contract, by route name: one spread per capability. Only the reference's
 * generator and the tests import this; a function imports its own capability's schemas alone.
 */
export const routeContracts: RouteContracts = {
  ...storeContracts,
  ...paymentRequestContracts,
  ...paymentLinkContracts,
  ...transactionContracts,
  ...webhookSubscriptionContracts,
  ...webhookDeliveryContracts,
  ...providerCallbackContracts,
  ...contactContracts,
  ...transferContracts,
  ...escrowContracts,
  ...payoutCallbackContracts,
  ...messageContracts,
  ...pageContracts,
  ...referenceContracts,
  ...serviceProviderContracts,
};
