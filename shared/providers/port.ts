import type { PayoutMethod, ProviderCode } from '#shared/domain/payment-methods.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';

/**
 * The port behind which the mobile-money providers sit, in two sides: what the service calls out
 * (`PaymentProvider`) and what checks what a provider calls in (`CallbackVerifier`). A collection
 * starts in one of three ways; it completes only through a callback that the provider signs and
 * the service verifies (never because a browser says so).
 */
export type CollectionFlow =
  /** The payer is sent to the provider's own approval page. */
  | 'redirect'
  /** The provider prompts the payer's phone directly. */
  | 'direct'
  /** A soundbox shows a QR code the payer scans with the provider's app. */
  | 'qr';

export interface CollectionRequest {
  paymentRequestId: string;
  /** A new UUID v4 per attempt, recorded first for a provider that takes it as its own id. */
  collectionId: string;
  provider: ProviderCode;
  amountCents: number;
  currency: string;
  flow: CollectionFlow;
  payerPhone?: string | undefined;
  /** Where the provider posts its callback. */
  callbackUrl: string;
  /** Where the provider sends the payer's browser back after a redirect flow. */
  returnUrl: string;
  /** The service's public base URL (the sandbox provider serves its pages under it). */
  baseUrl: string;
}

export interface CollectionStarted {
  /** The provider's id for the collection; its callbacks carry it. */
  providerReference: string;
  checkoutUrl?: string;
  qrPayload?: string;
}

export type CollectionOutcome = 'success' | 'declined' | 'insufficient_funds';

/** A callback whose signature checked out. */
export interface VerifiedCallback {
  /** Unique per callback delivery attempt from the provider's side; logged for tracing. */
  callbackId: string;
  provider: ProviderCode;
  providerReference: string;
  paymentRequestId: string;
  outcome: CollectionOutcome;
  payerPhone?: string | undefined;
  payerName?: string | undefined;
}

/** A transfer paid out to a beneficiary: by mobile money to a number, or to a bank account. */
export interface PayoutRequest {
  /** The service's id for it, which the provider keeps: its callbacks and status answers name it. */
  transferId: string;
  method: PayoutMethod;
  amountCents: number;
  currency: string;
  beneficiaryName: string;
  /** The number for mobile money; the account for a bank transfer. */
  beneficiaryNumber?: string | undefined;
  beneficiaryAccount?: Record<string, string> | undefined;
  /** Where the provider posts its callback. */
  callbackUrl: string;
}

export interface PayoutStarted {
  providerReference: string;
  /** Set when the provider's answer to the request is already final (Wave often pays at once). */
  outcome?: PayoutOutcome;
}

/** How a payout ended on the provider's side: paid, refused by the beneficiary's account, or over a limit. */
export type PayoutOutcome = 'success' | 'declined' | 'limit_exceeded';

/** A payout callback whose signature checked out. */
export interface VerifiedPayoutCallback {
  callbackId: string;
  method: PayoutMethod;
  providerReference: string;
  transferId: string;
  outcome: PayoutOutcome;
}

/**
 * What the provider says of a payout when asked: still under way, ended, or never received (the
 * service stopped between reserving and asking).
 */
export type PayoutStatus = 'pending' | PayoutOutcome | 'not_found';

/** A completed collection paid back, whole or in part, to its payer by the provider's own refund. */
export interface CollectionRefundRequest {
  /** The service's id for it, which the provider keeps: its callbacks and status answers name it. */
  refundId: string;
  provider: ProviderCode;
  /** The collection refunded, as the provider named it when it started. */
  collectionReference: string;
  /** What goes back of it. */
  amountCents: number;
  currency: string;
  payerNumber: string;
  /** Where the provider posts its callback (the payouts' route: the outcome has a payout's shape). */
  callbackUrl: string;
}

/** What the provider says of a collection when asked. */
export type CollectionStatus = 'pending' | CollectionOutcome | 'not_found';

/** The callback's URL query, for providers that sign nothing and name the transaction there. */
export type CallbackQuery = Record<string, string | undefined>;

/** What a provider is asked to do, each with a status of its own where the provider publishes one. */
export type ProviderOperation = 'collection' | 'payout' | 'refund';

/**
 * What the service asks of a provider: collections and payouts started, their status queried.
 * Everything that calls a provider out holds this side only; the callback checks are apart
 * (`CallbackVerifier`) so that a function which never receives a callback does not carry them.
 */
export interface PaymentProvider {
  startCollection(request: CollectionRequest): Promise<CollectionStarted>;
  /** The status query of a collection, for one whose callback never came (live providers). */
  collectionStatus?(providerReference: string): Promise<CollectionStatus>;
  /** Asks the provider to pay out; throws ProviderRefused when it refuses at once. */
  startPayout(request: PayoutRequest): Promise<PayoutStarted>;
  /** The status query, for a payout whose callback never came. */
  payoutStatus(transferId: string): Promise<PayoutStatus>;
  /**
   * Whether the provider pays this refund back itself, by reversing the collection (Wave's
   * checkout refund, whole only; MTN's refund): otherwise a refund is a payout to the payer.
   */
  refundsCollection?(provider: ProviderCode, whole: boolean): boolean;
  /** The provider's own refund; throws ProviderRefused when it refuses at once. */
  refundCollection?(request: CollectionRefundRequest): Promise<PayoutStarted>;
  /** Its status query, for a refund whose answer never came. */
  collectionRefundStatus?(request: CollectionRefundRequest): Promise<PayoutStatus>;
  /**
   * Set by a provider whose collections take an id the service chooses (`CollectionRequest.collectionId`
   * is then its `providerReference`): the reference is recorded before the call, so an answer lost
   * on the way is read back by the status query, never paid twice.
   */
  readonly namesCollectionsByOurId?: boolean;
  /**
   * Whether the provider says an operator is closed for an operation in a country (pawaPay
   * publishes it); a provider without this is judged by its own failures (operator-health.ts).
   */
  operatorClosed?(
    method: ProviderCode,
    country: UemoaCountry,
    operation: ProviderOperation,
  ): Promise<boolean>;
}

/**
 * What checks a provider's callbacks: only the callback routes hold it. Each adapter's module
 * keeps both its sides, so its signing rules stay in one place.
 */
export interface CallbackVerifier {
  /** Undefined when the signature or the body is not right: such a callback changes nothing. */
  verifyCallback(
    headers: Record<string, string | undefined>,
    rawBody: string,
    query?: CallbackQuery,
    target?: CallbackTarget,
  ): Promise<VerifiedCallback | undefined>;
  verifyPayoutCallback(
    headers: Record<string, string | undefined>,
    rawBody: string,
    query?: CallbackQuery,
    target?: CallbackTarget,
  ): Promise<VerifiedPayoutCallback | undefined>;
}

/** The request a callback was sent as (its method and public URL), for signatures that cover them. */
export interface CallbackTarget {
  method: string;
  url: string;
}
