import { type EndpointName, endpointEntries } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import {
  type Headers,
  idsOfBusiness,
  idsOfSecondStore,
  paymentRequestBody,
  type World,
} from '#test/support/world.ts';

/**
 * The tenancy matrix: every route of the route table, aimed at business `a`'s objects (in its
 * second store) by callers who may not see them. From the route's caller kind:
 * - `api_key` routes: another business's merchant key, and `a`'s platform key scoped to its first
 *   store, each get what a missing object gets (404 with the entry's id), or a list with nothing
 *   of `a` in it;
 * - `platform_key` routes: the same with platform keys, and `a`'s own merchant key gets 403;
 * - `service_provider` routes: a provider not linked to `a` gets 404 (as for a business that does
 *   not exist), and merchant keys get 403;
 * - `public` routes take no key: the entry says why nothing is to check.
 * Then `a`'s state (balances, statuses, lists, subscription) must be as it was, and the owner's
 * own key must get through with the same request, so a probe never passes for being malformed.
 */
export type Hidden =
  /** What a caller gets for an object it may not see: exactly what a missing one gets. */
  | { status: 404; id: string }
  /** A list: 200, with nothing the caller may not see in it. */
  | 'listed-without';

export interface GuardedRoute {
  /** The request aimed at `a`'s objects. */
  request: (world: World) => { path: string; body?: unknown };
  hidden: Hidden;
  /** What the owner gets for the same request (default 200). */
  control?: number[];
  /**
   * The objects belong to the business, not to a store (contacts, messages): a key scoped to one
   * of its stores sees them, so only other businesses' keys are probed. Says why.
   */
  businessWide?: string;
  /** An id of `a` the owner's answer must show, for a list. */
  shows?: (world: World) => string;
  /** The interface answers this 404 with `{"message"}` alone (`webhook_subscription_not_found`). */
  messageOnly?: true;
}

type MatrixEntry =
  | GuardedRoute
  | { public: string }
  /** Takes a key but names no object: it acts on the caller's own business alone. Says why. */
  | { ownBusiness: string };

/**
 * A request aimed at one of `a`'s objects by its address (with a body when the route takes one),
 * which a caller who may not see the object gets as a missing one: 404 with `id`.
 */
const hiddenAs = (
  id: string,
  path: string | ((world: World) => string),
  { body, ...more }: Partial<GuardedRoute> & { body?: (world: World) => unknown } = {},
): GuardedRoute => ({
  request: (w) => ({ path: typeof path === 'string' ? path : path(w), body: body?.(w) }),
  hidden: { status: 404, id },
  ...more,
});

/** A list of the caller's objects, in which none of `a`'s may show to a caller who may not see them. */
const listedWithout = (path: string, more: Partial<GuardedRoute> = {}): GuardedRoute => ({
  request: () => ({ path }),
  hidden: 'listed-without',
  ...more,
});

const contactsReason = 'contacts are the business’s beneficiaries, for transfers from any of its stores';
const messagesReason = 'messages are sent and paid for by the business, not by a store';

const pageReason = 'a page for payers: the unguessable id in its address is the capability';
const dashboardReason =
  'a dashboard page: the session (or the pending sign-in’s cookie) is the capability, and it names no object yet (test/e2e/dashboard-sign-in.test.ts)';

const sessionReason =
  'a dashboard page of a signed-in member: the session is the capability, not a key; another business’s member, invitation, verification or business answers 404 (test/e2e/dashboard-team.test.ts, “one business’s session and another business’s objects”; an invitation’s cancellation: test/e2e/dashboard-confirmations.test.ts)';
const dashboardLinkReason =
  'a dashboard page: the session is the capability; another business’s payment link by id is 404, and its switch changes nothing (test/e2e/dashboard-payment-links.test.ts)';
const dashboardTransactionReason =
  'a dashboard page: the session is the capability; another business’s transaction line or payment request by id (with or without its `at`), or junk, is 404 and nothing is written (test/e2e/dashboard-transactions.test.ts, “another business’s transactions”)';
const dashboardEscrowReason =
  'a dashboard page: the session is the capability; another business’s escrow by id is 404 and nothing moves (test/e2e/dashboard-escrows.test.ts)';
const dashboardObjectReason =
  'a dashboard page: the session is the capability; another business’s key, subscription or delivery by id is 404 (test/e2e/dashboard-developers.test.ts)';
const sendMoneyReason =
  'a dashboard page: the session is the capability; another business’s store or contact named in the form or the address is 404 and nothing is written (test/e2e/dashboard-transfers.test.ts, “another business’s store or contact”)';
const askedPaymentReason =
  'a dashboard page: the session is the capability; another business’s payment request by id is 404 (test/e2e/dashboard-payment-requests.test.ts, “another business’s request”)';
const payoutAccountsReason =
  'payout accounts are the business’s own, for withdrawals from any of its stores; a store-scoped key may not add or remove one (403)';
const withdrawalsPageReason =
  'a dashboard page: the session is the capability; another business’s store or account named in the form is 404 and nothing is written (test/e2e/withdrawals.test.ts)';
const smsPageReason =
  'a dashboard page: the session is the capability, and it names no object: the balance and the messages are the acting business’s alone (test/e2e/dashboard-sms.test.ts)';
const ownSubscriptionReason =
  'the subscription is the whole business’s: a key scoped to one store is refused with 403 (test/e2e/own-webhook-subscriptions.test.ts)';

/** The owner's refund in the matrix: one reference, so only its own request can claim it. */
const refundReference = `retour-matrice-${crypto.randomUUID()}`;

/** Keyed by endpoint name: a new endpoint needs its line here, saying how to aim it at another business. */
export const tenancyMatrix: Partial<Record<EndpointName, MatrixEntry>> = {
  listStores: listedWithout('/partner_api/stores', { shows: (w) => w.a.storeId }),
  getStoreBalance: hiddenAs('store_not_found', (w) => `/partner_api/stores/${w.a.storeId}/balance`),
  listDevices: listedWithout('/partner_api/devices', { shows: (w) => w.a.deviceId }),
  createPaymentRequest: hiddenAs('store_not_found', '/partner_api/payment_requests', {
    body: (w) => paymentRequestBody(w.a.storeId),
  }),
  getPaymentRequest: hiddenAs(
    'payment_request_not_found',
    (w) => `/partner_api/payment_requests/${w.a.paymentRequestId}`,
  ),
  cancelPaymentRequest: hiddenAs(
    'payment_request_not_found',
    (w) => `/partner_api/payment_requests/${w.a.cancellableRequestId}/cancel`,
  ),
  createPaymentLink: hiddenAs('store_not_found', '/partner_api/payment_links', {
    body: (w) => ({ storeId: w.a.storeId, title: 'Commande hors de portée', amountCents: 10_000 }),
  }),
  getPaymentLink: hiddenAs(
    'payment_link_not_found',
    (w) => `/partner_api/payment_links/${w.a.paymentLinkId}`,
  ),
  listPaymentLinks: listedWithout('/partner_api/payment_links', { shows: (w) => w.a.paymentLinkId }),
  // The owner's run switches the link off, then on again, before the sandbox pays it below.
  deactivatePaymentLink: hiddenAs(
    'payment_link_not_found',
    (w) => `/partner_api/payment_links/${w.a.paymentLinkId}/deactivate`,
  ),
  activatePaymentLink: hiddenAs(
    'payment_link_not_found',
    (w) => `/partner_api/payment_links/${w.a.paymentLinkId}/activate`,
  ),
  paySandboxPaymentLink: hiddenAs(
    'payment_link_not_found',
    (w) => `/sandbox/payment_links/${w.a.paymentLinkId}/pay`,
    { body: () => ({ paymentMethod: 'wave', payerPhone: '+2250700000004' }) },
  ),
  listTransactions: hiddenAs('store_not_found', (w) => `/partner_api/transactions?storeId=${w.a.storeId}`),
  approveSandboxPaymentRequest: hiddenAs(
    'payment_request_not_found',
    (w) => `/sandbox/payment_requests/${w.a.approvableRequestId}/approve`,
    { body: () => ({ payerPhone: '+2250700000001' }) },
  ),
  declineSandboxPaymentRequest: hiddenAs(
    'payment_request_not_found',
    (w) => `/sandbox/payment_requests/${w.a.declinableRequestId}/decline`,
  ),
  listWebhookDeliveries: listedWithout('/partner_api/webhook_deliveries', { shows: (w) => w.a.deliveryId }),
  resendWebhookDelivery: hiddenAs(
    'webhook_delivery_not_found',
    (w) => `/partner_api/webhook_deliveries/${w.a.deliveryId}/resend`,
  ),
  listWebhookSubscriptions: hiddenAs(
    'business_not_found',
    (w) =>
      `/partner_api/service_providers/business_webhook_subscriptions?merchantBusinessId=${w.a.businessId}`,
  ),
  createWebhookSubscription: hiddenAs(
    'business_not_found',
    '/partner_api/service_providers/business_webhook_subscriptions',
    {
      body: (w) => ({ merchantBusinessId: w.a.businessId, url: 'https://hooks.example.com/taken-over' }),
      // `a` has its subscription already; a second is a conflict, which proves the request got through.
      control: [409],
    },
  ),
  deleteWebhookSubscription: hiddenAs(
    'business_not_found',
    (w) =>
      `/partner_api/service_providers/business_webhook_subscriptions/${w.a.subscriptionId}?merchantBusinessId=${w.a.businessId}`,
  ),
  listOwnWebhookSubscriptions: listedWithout('/partner_api/webhook_subscriptions', {
    businessWide: ownSubscriptionReason,
    shows: (w) => w.a.subscriptionId,
  }),
  createOwnWebhookSubscription: {
    ownBusiness: 'names no object: it makes the subscription of the caller’s own business, at most one',
  },
  deleteOwnWebhookSubscription: hiddenAs(
    'webhook_subscription_not_found',
    (w) => `/partner_api/webhook_subscriptions/${w.a.subscriptionId}`,
    {
      messageOnly: true,
      businessWide: ownSubscriptionReason,
      // The provider's delete of the same subscription runs first among the deletions (it is declared
      // first), so the owner may find it gone; test/e2e/own-webhook-subscriptions.test.ts deletes one.
      control: [200, 404],
    },
  ),
  linkPage: { public: pageReason },
  submitLinkPage: { public: pageReason },
  paymentPage: { public: pageReason },
  submitPaymentPage: { public: pageReason },
  paymentReturnPage: { public: pageReason },
  abandonPaymentPage: { public: pageReason },
  sandboxCheckoutPage: { public: "the sandbox provider's page for payers, reached by its reference" },
  sandboxCheckoutAction: { public: "the sandbox provider's page for payers, reached by its reference" },
  receiveProviderCallback: {
    public: 'a provider calls it; only a body signed with its secret changes anything',
  },
  receiveProviderCallbackPut: {
    public: 'a provider calls it; only a callback its adapter can prove changes anything',
  },
  listContacts: listedWithout('/partner_api/contacts', {
    businessWide: contactsReason,
    shows: (w) => w.a.contactId,
  }),
  createContact: {
    ownBusiness:
      'names no object: the contact is made in the caller’s business (a test of contacts shows it)',
  },
  deleteContact: hiddenAs('contact_not_found', (w) => `/partner_api/contacts/${w.a.contactId}`, {
    businessWide: contactsReason,
  }),
  listPayoutAccounts: listedWithout('/partner_api/payout_accounts', {
    businessWide: payoutAccountsReason,
    shows: (w) => w.a.payoutAccountId,
  }),
  createPayoutAccount: {
    ownBusiness:
      'names no object: the account is registered in the caller’s business (test/e2e/withdrawals.test.ts)',
  },
  deletePayoutAccount: hiddenAs(
    'payout_account_not_found',
    (w) => `/partner_api/payout_accounts/${w.a.removablePayoutAccountId}`,
    { businessWide: payoutAccountsReason },
  ),
  // The owner's control withdraws for real, or finds the store short of it: either way it got in.
  createWithdrawal: hiddenAs('store_not_found', '/partner_api/withdrawals', {
    body: (w) => ({ storeId: w.a.storeId, payoutAccountId: w.a.payoutAccountId, amountCents: 500 }),
    control: [200, 422],
  }),
  buySmsCredit: hiddenAs('store_not_found', '/partner_api/sms_credit_purchases', {
    body: (w) => ({ storeId: w.a.storeId, segments: 100 }),
    control: [201, 422],
  }),
  withdrawalsPage: { public: withdrawalsPageReason },
  checkWithdrawalPage: { public: withdrawalsPageReason },
  payoutAccountPage: { public: withdrawalsPageReason },
  automaticSettlementPage: { public: withdrawalsPageReason },
  buySmsCreditPage: { public: smsPageReason },
  createTransfer: hiddenAs('store_not_found', '/partner_api/transfers', {
    body: (w) => ({
      storeId: w.a.storeId,
      amountCents: 500,
      currency: 'XOF',
      paymentMethod: 'svc',
      destinationStoreId: w.a.firstStoreId,
    }),
  }),
  getTransfer: hiddenAs('transfer_not_found', (w) => `/partner_api/transfers/${w.a.pendingTransferId}`),
  createRefund: hiddenAs('payment_request_not_found', '/partner_api/refunds', {
    body: (w) => ({
      paymentRequestId: w.a.completedRequestId,
      amountCents: 1_000,
      reference: refundReference,
    }),
    control: [201],
  }),
  getRefund: hiddenAs('refund_not_found', (w) => `/partner_api/refunds/${w.a.pendingRefundId}`),
  listRefunds: hiddenAs('store_not_found', (w) => `/partner_api/refunds?storeId=${w.a.storeId}`),
  completeSandboxRefund: hiddenAs(
    'refund_not_found',
    (w) => `/sandbox/refunds/${w.a.pendingRefundId}/complete`,
  ),
  failSandboxRefund: hiddenAs('refund_not_found', (w) => `/sandbox/refunds/${w.a.failableRefundId}/fail`),
  receivePayoutCallback: {
    public: 'a provider calls it; only a body signed with its secret changes anything',
  },
  receivePayoutCallbackPut: {
    public: 'a provider calls it; only a callback its adapter can prove changes anything',
  },
  receivePawapayCallback: {
    public: 'pawaPay calls it; only a callback its status check confirms changes anything',
  },
  receiveSmileIdCallback: {
    public: 'Smile ID calls it; only a signed result its job status confirms changes anything',
  },
  completeSandboxTransfer: hiddenAs(
    'transfer_not_found',
    (w) => `/sandbox/transfers/${w.a.pendingTransferId}/complete`,
  ),
  failSandboxTransfer: hiddenAs(
    'transfer_not_found',
    (w) => `/sandbox/transfers/${w.a.failableTransferId}/fail`,
  ),
  sendMessage: {
    ownBusiness: 'names no object: the message is sent from the caller’s business, on its balance',
  },
  listMessages: listedWithout('/partner_api/messages', {
    businessWide: messagesReason,
    shows: (w) => w.a.messageId,
  }),
  getMessageAccount: {
    ownBusiness: 'names no object: it answers the caller’s own business’s account',
  },
  getMessage: hiddenAs('message_not_found', (w) => `/partner_api/messages/${w.a.messageId}`, {
    businessWide: messagesReason,
  }),
  listEscrows: listedWithout('/partner_api/escrows', { shows: (w) => w.a.releasableEscrowId }),
  releaseEscrow: hiddenAs(
    'escrow_not_found',
    (w) => `/partner_api/escrows/${w.a.releasableEscrowId}/release`,
  ),
  refundEscrow: hiddenAs('escrow_not_found', (w) => `/partner_api/escrows/${w.a.refundableEscrowId}/refund`),
  openApiDocument: { public: 'the reference, the same for everyone' },
  referencePage: { public: 'the reference, the same for everyone' },
  referencePageAsset: { public: 'the reference, the same for everyone' },
  listActivities: { ownBusiness: 'names no object: the catalogue of activities is the same for everyone' },
  onboardBusiness: {
    ownBusiness: 'names no object: the business it makes is linked to the caller alone',
  },
  listBusinessLinks: listedWithout('/partner_api/service_providers/business_links', {
    shows: (w) => w.a.businessId,
  }),
  detachBusinessLink: hiddenAs(
    'business_not_found',
    (w) => `/partner_api/service_providers/business_links/${w.a.businessId}`,
  ),
  createMerchantApiKey: hiddenAs('business_not_found', '/partner_api/service_providers/business_api_keys', {
    body: (w) => ({ merchantBusinessId: w.provider.onboardedBusinessId, name: 'Caisse hors de portée' }),
  }),
  createLinkRequests: {
    ownBusiness:
      'names a phone, not an object: any provider may ask an owner, and only the owner’s consent with the SMS code links',
  },
  getLinkRequest: hiddenAs(
    'business_link_request_not_found',
    (w) => `/partner_api/service_providers/business_link_requests/${w.provider.linkRequestId}`,
  ),
  dashboardHome: { public: dashboardReason },
  signInPage: { public: dashboardReason },
  submitSignInPage: { public: dashboardReason },
  signInCodePage: { public: dashboardReason },
  submitSignInCodePage: { public: dashboardReason },
  signUpPage: { public: dashboardReason },
  submitSignUpPage: { public: dashboardReason },
  signOut: { public: dashboardReason },
  teamPage: { public: sessionReason },
  inviteMember: { public: sessionReason },
  changeMemberRole: { public: sessionReason },
  confirmRemoveMember: { public: sessionReason },
  removeMember: { public: sessionReason },
  confirmCancelInvitation: { public: sessionReason },
  cancelInvitation: { public: sessionReason },
  businessesPage: { public: sessionReason },
  chooseBusiness: { public: sessionReason },
  signOutEverywhere: { public: sessionReason },
  startDashboardVerification: { public: sessionReason },
  dashboardVerificationPage: { public: sessionReason },
  submitDashboardVerificationPage: { public: sessionReason },
  startDashboardDocumentCheck: { public: sessionReason },
  apiKeysPage: { public: dashboardReason },
  createApiKeyPage: { public: dashboardReason },
  confirmRevokeApiKeyPage: { public: dashboardObjectReason },
  revokeApiKeyPage: { public: dashboardObjectReason },
  webhooksPage: { public: dashboardReason },
  saveWebhookPage: { public: dashboardObjectReason },
  confirmDeleteWebhookPage: { public: dashboardObjectReason },
  deleteWebhookPage: { public: dashboardObjectReason },
  confirmRotateWebhookSecretPage: { public: dashboardObjectReason },
  rotateWebhookSecretPage: { public: dashboardObjectReason },
  sendTestWebhookPage: { public: dashboardReason },
  resendWebhookDeliveryPage: { public: dashboardObjectReason },
  auditLogPage: { public: dashboardReason },
  paymentLinksPage: { public: dashboardReason },
  newPaymentLinkPage: { public: dashboardReason },
  createPaymentLinkPage: { public: dashboardReason },
  paymentLinkPage: { public: dashboardLinkReason },
  paymentLinkQrCode: { public: dashboardLinkReason },
  paymentLinkCardPage: { public: dashboardLinkReason },
  switchPaymentLinkPage: { public: dashboardLinkReason },
  transfersPage: { public: dashboardReason },
  newTransferPage: { public: dashboardReason },
  checkTransferPage: { public: sendMoneyReason },
  confirmTransferPage: { public: sendMoneyReason },
  setStepUpThresholdPage: { public: dashboardReason },
  contactsPage: { public: dashboardReason },
  addContactPage: { public: dashboardReason },
  confirmRemoveContactPage: { public: sendMoneyReason },
  removeContactPage: { public: sendMoneyReason },
  exportTransactionsPage: {
    public:
      'a dashboard page: the session is the capability; another business’s store in `store` is 404, on the form and on the file, and no row of it is sent (test/e2e/dashboard-export.test.ts, “another business’s store (404)”)',
  },
  statementPage: {
    public:
      'a dashboard page: the session is the capability; another business’s store in `store` is 404, on the page and on the CSV, and none of its figures is shown (test/e2e/dashboard-statements.test.ts, “another business’s store”)',
  },
  paymentRequestsPage: { public: dashboardReason },
  askForPaymentPage: { public: askedPaymentReason },
  paymentRequestPage: { public: askedPaymentReason },
  smsPage: { public: smsPageReason },
  sendSmsPage: { public: smsPageReason },
  transactionsPage: { public: dashboardReason },
  transactionPage: { public: dashboardTransactionReason },
  refundTransactionPage: { public: dashboardTransactionReason },
  confirmRefundTransactionPage: { public: dashboardTransactionReason },
  confirmCancelPaymentPage: { public: dashboardTransactionReason },
  cancelPaymentPage: { public: dashboardTransactionReason },
  resendTransactionDeliveryPage: { public: dashboardObjectReason },
  escrowsPage: { public: dashboardReason },
  confirmReleaseEscrowPage: { public: dashboardEscrowReason },
  releaseEscrowPage: { public: dashboardEscrowReason },
  confirmRefundEscrowPage: { public: dashboardEscrowReason },
  refundEscrowPage: { public: dashboardEscrowReason },
  soundboxesPage: { public: dashboardReason },
  showTestQrPage: {
    public:
      'a dashboard page: the session is the capability; another business’s soundbox by id is 404 and nothing is pushed (test/e2e/dashboard-soundboxes.test.ts)',
  },
  linkRequestPage: {
    public: 'a page for the business’s owner: the unguessable id and the SMS code are the capability',
  },
  submitLinkRequestPage: {
    public: 'a page for the business’s owner: the unguessable id and the SMS code are the capability',
  },
  approveSandboxLinkRequest: hiddenAs(
    'business_link_request_not_found',
    (w) => `/sandbox/business_link_requests/${w.provider.approvableLinkRequestId}/approve`,
  ),
  declineSandboxLinkRequest: hiddenAs(
    'business_link_request_not_found',
    (w) => `/sandbox/business_link_requests/${w.provider.declinableLinkRequestId}/decline`,
  ),
  createComplianceVerification: hiddenAs(
    'business_not_found',
    '/partner_api/service_providers/compliance_verifications',
    { body: (w) => ({ type: 'kyc', merchantBusinessId: w.a.businessId }) },
  ),
  sandboxVerificationPage: {
    public: 'the sandbox page for the business’s owner, reached by its unguessable id',
  },
  submitSandboxVerificationPage: {
    public: 'the sandbox page for the business’s owner, reached by its unguessable id',
  },
};

export interface Probe {
  who: string;
  headers: (w: World) => Headers;
  /** The ids this caller may not see. */
  unseen: (w: World) => string[];
  expect: Hidden | { status: 403; id: 'forbidden_action' };
}

/** The callers who may not see `a`'s second store, for a route of this caller kind. */
export function probesFor(route: Endpoint, entry: GuardedRoute): Probe[] {
  const hiddenFrom = (who: string, headers: Probe['headers'], unseen: Probe['unseen']): Probe => ({
    who,
    headers,
    unseen,
    expect: entry.hidden,
  });
  const forbidden = (who: string, headers: Probe['headers']): Probe => ({
    who,
    headers,
    unseen: () => [],
    expect: { status: 403, id: 'forbidden_action' },
  });
  // A key scoped to a's first store sees the objects of the whole business (contacts, messages).
  const scopedToAnotherStore = entry.businessWide
    ? []
    : [hiddenFrom('a platform key scoped to another store', (w) => w.a.scopedToFirstStore, idsOfSecondStore)];
  switch (route.caller) {
    case 'api_key':
      return [
        hiddenFrom("another business's merchant key", (w) => w.b.merchant, idsOfBusiness),
        ...scopedToAnotherStore,
      ];
    case 'platform_key':
      return [
        hiddenFrom("another business's platform key", (w) => w.b.platform, idsOfBusiness),
        ...scopedToAnotherStore,
        forbidden("the business's own merchant key", (w) => w.a.merchant),
      ];
    case 'service_provider':
      return [
        hiddenFrom(
          'a service provider not linked to the merchant',
          (w) => w.stranger.key,
          (w) => idsOfBusiness(w).filter((id) => id !== w.a.businessId),
        ),
        forbidden("the merchant's own key", (w) => w.a.merchant),
        forbidden("another business's merchant key", (w) => w.b.merchant),
      ];
    default:
      return [];
  }
}

/** The key that may do what the request asks. */
export function ownerOf(route: Endpoint, w: World): Headers {
  if (route.caller === 'service_provider') return w.provider.key;
  if (route.caller === 'platform_key') return w.a.platform;
  return w.a.merchant;
}

export const guarded = endpointEntries.filter(([name]) => {
  const entry = tenancyMatrix[name];
  return entry !== undefined && !('public' in entry) && !('ownBusiness' in entry);
}) as [EndpointName, Endpoint][];
