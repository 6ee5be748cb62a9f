import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type EndpointName, endpointEntries } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { apiClient, type Body } from '#test/support/api-client.ts';
import {
  buildWorld,
  type Headers,
  idsOfBusiness,
  idsOfSecondStore,
  paymentRequestBody,
  stateOf,
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
type Hidden =
  /** What a caller gets for an object it may not see: exactly what a missing one gets. */
  | { status: 404; id: string }
  /** A list: 200, with nothing the caller may not see in it. */
  | 'listed-without';

interface GuardedRoute {
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
  /** An id of `a` the owner's answer must show (default: `a`'s second store, for a list). */
  shows?: (world: World) => string;
  /** The interface answers this 404 with `{"message"}` alone (`webhook_subscription_not_found`). */
  messageOnly?: true;
}

type MatrixEntry =
  | GuardedRoute
  | { public: string }
  /** Takes a key but names no object: it acts on the caller's own business alone. Says why. */
  | { ownBusiness: string };

const contactsReason = 'contacts are the business’s beneficiaries, for transfers from any of its stores';
const messagesReason = 'messages are sent and paid for by the business, not by a store';

const pageReason = 'a page for payers: the unguessable id in its address is the capability';
const dashboardReason =
  'a dashboard page: the session (or the pending sign-in’s cookie) is the capability, and it names no object yet (test/e2e/dashboard-sign-in.test.ts)';

const sessionReason =
  'a dashboard page of a signed-in member: the session is the capability, not a key; another business’s member, verification or business answers 404 (test/e2e/dashboard-team.test.ts, “one business’s session and another business’s objects”)';
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
const smsPageReason =
  'a dashboard page: the session is the capability, and it names no object: the balance and the messages are the acting business’s alone (test/e2e/dashboard-sms.test.ts)';
const ownSubscriptionReason =
  'the subscription is the whole business’s: a key scoped to one store is refused with 403 (test/e2e/own-webhook-subscriptions.test.ts)';

/** The owner's refund in the matrix: one reference, so only its own request can claim it. */
const refundReference = `retour-matrice-${crypto.randomUUID()}`;

/** Keyed by endpoint name: a new endpoint needs its line here, saying how to aim it at another business. */
const tenancyMatrix: Partial<Record<EndpointName, MatrixEntry>> = {
  listStores: { request: () => ({ path: '/partner_api/stores' }), hidden: 'listed-without' },
  getStoreBalance: {
    request: (w) => ({ path: `/partner_api/stores/${w.a.storeId}/balance` }),
    hidden: { status: 404, id: 'store_not_found' },
  },
  listDevices: { request: () => ({ path: '/partner_api/devices' }), hidden: 'listed-without' },
  createPaymentRequest: {
    request: (w) => ({ path: '/partner_api/payment_requests', body: paymentRequestBody(w.a.storeId) }),
    hidden: { status: 404, id: 'store_not_found' },
  },
  getPaymentRequest: {
    request: (w) => ({ path: `/partner_api/payment_requests/${w.a.paymentRequestId}` }),
    hidden: { status: 404, id: 'payment_request_not_found' },
  },
  cancelPaymentRequest: {
    request: (w) => ({ path: `/partner_api/payment_requests/${w.a.cancellableRequestId}/cancel` }),
    hidden: { status: 404, id: 'payment_request_not_found' },
  },
  createPaymentLink: {
    request: (w) => ({
      path: '/partner_api/payment_links',
      body: { storeId: w.a.storeId, title: 'Commande hors de portée', amountCents: 10_000 },
    }),
    hidden: { status: 404, id: 'store_not_found' },
  },
  getPaymentLink: {
    request: (w) => ({ path: `/partner_api/payment_links/${w.a.paymentLinkId}` }),
    hidden: { status: 404, id: 'payment_link_not_found' },
  },
  listPaymentLinks: {
    request: () => ({ path: '/partner_api/payment_links' }),
    hidden: 'listed-without',
    shows: (w) => w.a.paymentLinkId,
  },
  // The owner's run switches the link off, then on again, before the sandbox pays it below.
  deactivatePaymentLink: {
    request: (w) => ({ path: `/partner_api/payment_links/${w.a.paymentLinkId}/deactivate` }),
    hidden: { status: 404, id: 'payment_link_not_found' },
  },
  activatePaymentLink: {
    request: (w) => ({ path: `/partner_api/payment_links/${w.a.paymentLinkId}/activate` }),
    hidden: { status: 404, id: 'payment_link_not_found' },
  },
  paySandboxPaymentLink: {
    request: (w) => ({
      path: `/sandbox/payment_links/${w.a.paymentLinkId}/pay`,
      body: { paymentMethod: 'wave', payerPhone: '+2250700000004' },
    }),
    hidden: { status: 404, id: 'payment_link_not_found' },
  },
  listTransactions: {
    request: (w) => ({ path: `/partner_api/transactions?storeId=${w.a.storeId}` }),
    hidden: { status: 404, id: 'store_not_found' },
  },
  approveSandboxPaymentRequest: {
    request: (w) => ({
      path: `/sandbox/payment_requests/${w.a.approvableRequestId}/approve`,
      body: { payerPhone: '+2250700000001' },
    }),
    hidden: { status: 404, id: 'payment_request_not_found' },
  },
  declineSandboxPaymentRequest: {
    request: (w) => ({ path: `/sandbox/payment_requests/${w.a.declinableRequestId}/decline` }),
    hidden: { status: 404, id: 'payment_request_not_found' },
  },
  listWebhookDeliveries: {
    request: () => ({ path: '/partner_api/webhook_deliveries' }),
    hidden: 'listed-without',
  },
  resendWebhookDelivery: {
    request: (w) => ({ path: `/partner_api/webhook_deliveries/${w.a.deliveryId}/resend` }),
    hidden: { status: 404, id: 'webhook_delivery_not_found' },
  },
  listWebhookSubscriptions: {
    request: (w) => ({
      path: `/partner_api/service_providers/business_webhook_subscriptions?merchantBusinessId=${w.a.businessId}`,
    }),
    hidden: { status: 404, id: 'business_not_found' },
  },
  createWebhookSubscription: {
    request: (w) => ({
      path: '/partner_api/service_providers/business_webhook_subscriptions',
      body: { merchantBusinessId: w.a.businessId, url: 'https://hooks.example.com/taken-over' },
    }),
    hidden: { status: 404, id: 'business_not_found' },
    // `a` has its subscription already; a second is a conflict, which proves the request got through.
    control: [409],
  },
  deleteWebhookSubscription: {
    request: (w) => ({
      path: `/partner_api/service_providers/business_webhook_subscriptions/${w.a.subscriptionId}?merchantBusinessId=${w.a.businessId}`,
    }),
    hidden: { status: 404, id: 'business_not_found' },
  },
  listOwnWebhookSubscriptions: {
    request: () => ({ path: '/partner_api/webhook_subscriptions' }),
    hidden: 'listed-without',
    businessWide: ownSubscriptionReason,
    shows: (w) => w.a.subscriptionId,
  },
  createOwnWebhookSubscription: {
    ownBusiness: 'names no object: it makes the subscription of the caller’s own business, at most one',
  },
  deleteOwnWebhookSubscription: {
    request: (w) => ({ path: `/partner_api/webhook_subscriptions/${w.a.subscriptionId}` }),
    hidden: { status: 404, id: 'webhook_subscription_not_found' },
    messageOnly: true,
    businessWide: ownSubscriptionReason,
    // The provider's delete of the same subscription runs first among the deletions (it is declared
    // first), so the owner may find it gone; test/e2e/own-webhook-subscriptions.test.ts deletes one.
    control: [200, 404],
  },
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
  listContacts: {
    request: () => ({ path: '/partner_api/contacts' }),
    hidden: 'listed-without',
    businessWide: contactsReason,
    shows: (w) => w.a.contactId,
  },
  createContact: {
    ownBusiness:
      'names no object: the contact is made in the caller’s business (a test of contacts shows it)',
  },
  deleteContact: {
    request: (w) => ({ path: `/partner_api/contacts/${w.a.contactId}` }),
    hidden: { status: 404, id: 'contact_not_found' },
    businessWide: contactsReason,
  },
  createTransfer: {
    request: (w) => ({
      path: '/partner_api/transfers',
      body: {
        storeId: w.a.storeId,
        amountCents: 500,
        currency: 'XOF',
        paymentMethod: 'svc',
        destinationStoreId: w.a.firstStoreId,
      },
    }),
    hidden: { status: 404, id: 'store_not_found' },
  },
  getTransfer: {
    request: (w) => ({ path: `/partner_api/transfers/${w.a.pendingTransferId}` }),
    hidden: { status: 404, id: 'transfer_not_found' },
  },
  createRefund: {
    request: (w) => ({
      path: '/partner_api/refunds',
      body: { paymentRequestId: w.a.completedRequestId, amountCents: 1_000, reference: refundReference },
    }),
    hidden: { status: 404, id: 'payment_request_not_found' },
    control: [201],
  },
  getRefund: {
    request: (w) => ({ path: `/partner_api/refunds/${w.a.pendingRefundId}` }),
    hidden: { status: 404, id: 'refund_not_found' },
  },
  listRefunds: {
    request: (w) => ({ path: `/partner_api/refunds?storeId=${w.a.storeId}` }),
    hidden: { status: 404, id: 'store_not_found' },
  },
  completeSandboxRefund: {
    request: (w) => ({ path: `/sandbox/refunds/${w.a.pendingRefundId}/complete` }),
    hidden: { status: 404, id: 'refund_not_found' },
  },
  failSandboxRefund: {
    request: (w) => ({ path: `/sandbox/refunds/${w.a.failableRefundId}/fail` }),
    hidden: { status: 404, id: 'refund_not_found' },
  },
  receivePayoutCallback: {
    public: 'a provider calls it; only a body signed with its secret changes anything',
  },
  receivePayoutCallbackPut: {
    public: 'a provider calls it; only a callback its adapter can prove changes anything',
  },
  completeSandboxTransfer: {
    request: (w) => ({ path: `/sandbox/transfers/${w.a.pendingTransferId}/complete` }),
    hidden: { status: 404, id: 'transfer_not_found' },
  },
  failSandboxTransfer: {
    request: (w) => ({ path: `/sandbox/transfers/${w.a.failableTransferId}/fail` }),
    hidden: { status: 404, id: 'transfer_not_found' },
  },
  sendMessage: {
    ownBusiness: 'names no object: the message is sent from the caller’s business, on its balance',
  },
  listMessages: {
    request: () => ({ path: '/partner_api/messages' }),
    hidden: 'listed-without',
    businessWide: messagesReason,
    shows: (w) => w.a.messageId,
  },
  getMessageAccount: {
    ownBusiness: 'names no object: it answers the caller’s own business’s account',
  },
  getMessage: {
    request: (w) => ({ path: `/partner_api/messages/${w.a.messageId}` }),
    hidden: { status: 404, id: 'message_not_found' },
    businessWide: messagesReason,
  },
  listEscrows: {
    request: () => ({ path: '/partner_api/escrows' }),
    hidden: 'listed-without',
    shows: (w) => w.a.releasableEscrowId,
  },
  releaseEscrow: {
    request: (w) => ({ path: `/partner_api/escrows/${w.a.releasableEscrowId}/release` }),
    hidden: { status: 404, id: 'escrow_not_found' },
  },
  refundEscrow: {
    request: (w) => ({ path: `/partner_api/escrows/${w.a.refundableEscrowId}/refund` }),
    hidden: { status: 404, id: 'escrow_not_found' },
  },
  openApiDocument: { public: 'the reference, the same for everyone' },
  referencePage: { public: 'the reference, the same for everyone' },
  referencePageAsset: { public: 'the reference, the same for everyone' },
  listActivities: { ownBusiness: 'names no object: the catalogue of activities is the same for everyone' },
  onboardBusiness: {
    ownBusiness: 'names no object: the business it makes is linked to the caller alone',
  },
  listBusinessLinks: {
    request: () => ({ path: '/partner_api/service_providers/business_links' }),
    hidden: 'listed-without',
    shows: (w) => w.a.businessId,
  },
  detachBusinessLink: {
    request: (w) => ({ path: `/partner_api/service_providers/business_links/${w.a.businessId}` }),
    hidden: { status: 404, id: 'business_not_found' },
  },
  createMerchantApiKey: {
    request: (w) => ({
      path: '/partner_api/service_providers/business_api_keys',
      body: { merchantBusinessId: w.provider.onboardedBusinessId, name: 'Caisse hors de portée' },
    }),
    hidden: { status: 404, id: 'business_not_found' },
  },
  createLinkRequests: {
    ownBusiness:
      'names a phone, not an object: any provider may ask an owner, and only the owner’s consent with the SMS code links',
  },
  getLinkRequest: {
    request: (w) => ({
      path: `/partner_api/service_providers/business_link_requests/${w.provider.linkRequestId}`,
    }),
    hidden: { status: 404, id: 'business_link_request_not_found' },
  },
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
  removeMember: { public: sessionReason },
  businessesPage: { public: sessionReason },
  chooseBusiness: { public: sessionReason },
  signOutEverywhere: { public: sessionReason },
  startDashboardVerification: { public: sessionReason },
  dashboardVerificationPage: { public: sessionReason },
  submitDashboardVerificationPage: { public: sessionReason },
  apiKeysPage: { public: dashboardReason },
  createApiKeyPage: { public: dashboardReason },
  confirmRevokeApiKeyPage: { public: dashboardObjectReason },
  revokeApiKeyPage: { public: dashboardObjectReason },
  webhooksPage: { public: dashboardReason },
  saveWebhookPage: { public: dashboardObjectReason },
  deleteWebhookPage: { public: dashboardObjectReason },
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
  removeContactPage: { public: sendMoneyReason },
  exportTransactionsPage: {
    public:
      'a dashboard page: the session is the capability; another business’s store in `store` is 404, on the form and on the file, and no row of it is sent (test/e2e/dashboard-export.test.ts, “another business’s store (404)”)',
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
  approveSandboxLinkRequest: {
    request: (w) => ({
      path: `/sandbox/business_link_requests/${w.provider.approvableLinkRequestId}/approve`,
    }),
    hidden: { status: 404, id: 'business_link_request_not_found' },
  },
  declineSandboxLinkRequest: {
    request: (w) => ({
      path: `/sandbox/business_link_requests/${w.provider.declinableLinkRequestId}/decline`,
    }),
    hidden: { status: 404, id: 'business_link_request_not_found' },
  },
  createComplianceVerification: {
    request: (w) => ({
      path: '/partner_api/service_providers/compliance_verifications',
      body: { type: 'kyc', merchantBusinessId: w.a.businessId },
    }),
    hidden: { status: 404, id: 'business_not_found' },
  },
  sandboxVerificationPage: {
    public: 'the sandbox page for the business’s owner, reached by its unguessable id',
  },
  submitSandboxVerificationPage: {
    public: 'the sandbox page for the business’s owner, reached by its unguessable id',
  },
};

const { config } = inject('localHost');
const call = apiClient(config.baseUrl);
let world: World;
/** `a`'s state as last read: each probe must leave it so. */
let state: Awaited<ReturnType<typeof stateOf>>;

beforeAll(async () => {
  world = await buildWorld(config);
  state = await stateOf(config.baseUrl, world);
}, 120_000);
afterAll(async () => {
  await world?.receiver.close();
});

interface Probe {
  who: string;
  headers: (w: World) => Headers;
  /** The ids this caller may not see. */
  unseen: (w: World) => string[];
  expect: Hidden | { status: 403; id: 'forbidden_action' };
}

/** The callers who may not see `a`'s second store, for a route of this caller kind. */
function probesFor(route: Endpoint, entry: GuardedRoute): Probe[] {
  const scopedProbes = (probes: Probe[]) =>
    entry.businessWide
      ? probes.filter((probe) => probe.who !== 'a platform key scoped to another store')
      : probes;
  switch (route.caller) {
    case 'api_key':
      return scopedProbes([
        {
          who: "another business's merchant key",
          headers: (w) => w.b.merchant,
          unseen: idsOfBusiness,
          expect: entry.hidden,
        },
        {
          who: 'a platform key scoped to another store',
          headers: (w) => w.a.scopedToFirstStore,
          unseen: idsOfSecondStore,
          expect: entry.hidden,
        },
      ]);
    case 'platform_key':
      return scopedProbes([
        {
          who: "another business's platform key",
          headers: (w) => w.b.platform,
          unseen: idsOfBusiness,
          expect: entry.hidden,
        },
        {
          who: 'a platform key scoped to another store',
          headers: (w) => w.a.scopedToFirstStore,
          unseen: idsOfSecondStore,
          expect: entry.hidden,
        },
        {
          who: "the business's own merchant key",
          headers: (w) => w.a.merchant,
          unseen: () => [],
          expect: { status: 403, id: 'forbidden_action' },
        },
      ]);
    case 'service_provider':
      return [
        {
          who: 'a service provider not linked to the merchant',
          headers: (w) => w.stranger.key,
          unseen: (w) => idsOfBusiness(w).filter((id) => id !== w.a.businessId),
          expect: entry.hidden,
        },
        {
          who: "the merchant's own key",
          headers: (w) => w.a.merchant,
          unseen: () => [],
          expect: { status: 403, id: 'forbidden_action' },
        },
        {
          who: "another business's merchant key",
          headers: (w) => w.b.merchant,
          unseen: () => [],
          expect: { status: 403, id: 'forbidden_action' },
        },
      ];
    default:
      return [];
  }
}

/** The key that may do what the request asks. */
function ownerOf(route: Endpoint, w: World): Headers {
  if (route.caller === 'service_provider') return w.provider.key;
  if (route.caller === 'platform_key') return w.a.platform;
  return w.a.merchant;
}

const guarded = endpointEntries.filter(([name]) => {
  const entry = tenancyMatrix[name];
  return entry !== undefined && !('public' in entry) && !('ownBusiness' in entry);
}) as [EndpointName, Endpoint][];

describe('the tenancy matrix', () => {
  it('has an entry for every route of the route table', () => {
    const missing = endpointEntries.map(([name]) => name).filter((name) => tenancyMatrix[name] === undefined);
    expect(
      missing,
      `Add to tenancyMatrix in test/e2e/tenancy-matrix.test.ts, for each of these routes, the request aimed at business a's objects and how they are hidden ({ status: 404, id } or 'listed-without'), or { public: why no key applies }, or { ownBusiness: why it names no object }`,
    ).toEqual([]);
    for (const [name, route] of endpointEntries) {
      const entry = tenancyMatrix[name];
      if (entry && 'public' in entry)
        expect(route.caller, `${name} is in the matrix as public but takes a key`).toBe('public');
      if (entry && 'ownBusiness' in entry)
        expect(route.path, `${name} names an object in its path: aim it at one of a's`).not.toContain('{');
    }
  });

  describe.each(guarded)('%s', (name, route) => {
    const entry = tenancyMatrix[name] as GuardedRoute;
    for (const probe of probesFor(route, entry)) {
      it(`hides its objects from ${probe.who}, and changes nothing`, async () => {
        const { path, body } = entry.request(world);
        const answer = await call(route.method, path, probe.headers(world), body);
        if (probe.expect === 'listed-without') {
          expect(answer.status).toBe(200);
        } else {
          expect(answer.status, JSON.stringify(answer.body)).toBe(probe.expect.status);
          expect(answer.body).toEqual(
            entry.messageOnly && probe.expect.status === 404
              ? { message: expect.any(String) }
              : { id: probe.expect.id, message: expect.any(String), extras: null },
          );
        }
        const text = JSON.stringify(answer.body as Body);
        for (const id of probe.unseen(world)) expect(text, `the answer shows ${id}`).not.toContain(id);
        const after = await stateOf(config.baseUrl, world);
        expect(after).toEqual(state);
        state = after;
      });
    }
  });

  // Last: these change `a`'s state, as the owner may; deletions after everything else.
  const destructiveLast = [...guarded].sort(
    ([, x], [, y]) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'),
  );
  describe.each(destructiveLast)('%s', (name, route) => {
    const entry = tenancyMatrix[name] as GuardedRoute;
    it('lets the owner through with the same request, so the probes above aimed at something real', async () => {
      const { path, body } = entry.request(world);
      const answer = await call(route.method, path, ownerOf(route, world), body);
      expect(entry.control ?? [200], JSON.stringify(answer.body)).toContain(answer.status);
      if (entry.hidden === 'listed-without' && (route.caller === 'api_key' || entry.shows)) {
        expect(JSON.stringify(answer.body)).toContain(
          entry.shows
            ? entry.shows(world)
            : name === 'listWebhookDeliveries'
              ? world.a.deliveryId
              : name === 'listDevices'
                ? world.a.deviceId
                : world.a.storeId,
        );
      }
    });
  });
});
