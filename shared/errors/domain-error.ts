import type { ApiKeyErrorId } from '#shared/errors/api-keys.ts';
import type { AuthErrorId } from '#shared/errors/auth.ts';
import type { BusinessErrorId } from '#shared/errors/businesses.ts';
import type { ContactErrorId } from '#shared/errors/contacts.ts';
import type { EscrowErrorId } from '#shared/errors/escrows.ts';
import type { LedgerErrorId } from '#shared/errors/ledger.ts';
import type { MessageErrorId } from '#shared/errors/messages.ts';
import type { PaymentLinkErrorId } from '#shared/errors/payment-links.ts';
import type { PaymentRequestErrorId } from '#shared/errors/payment-requests.ts';
import type { PayoutAccountErrorId } from '#shared/errors/payout-accounts.ts';
import type { ProviderErrorId } from '#shared/errors/providers.ts';
import type { RefundErrorId } from '#shared/errors/refunds.ts';
import type { RequestErrorId } from '#shared/errors/request.ts';
import type { ServiceProviderErrorId } from '#shared/errors/service-providers.ts';
import type { TransferErrorId } from '#shared/errors/transfers.ts';
import type { WebhookErrorId } from '#shared/errors/webhooks.ts';

/**
 * The stable `id`s integrations read, each declared beside its errors (one file of `shared/errors/`
 * a capability). The HTTP layer maps ids to statuses in one table (`shared/http/error-status.ts`).
 */
export type ErrorId =
  | RequestErrorId
  | AuthErrorId
  | ApiKeyErrorId
  | BusinessErrorId
  | PaymentRequestErrorId
  | PaymentLinkErrorId
  | ProviderErrorId
  | LedgerErrorId
  | TransferErrorId
  | RefundErrorId
  | EscrowErrorId
  | ContactErrorId
  | MessageErrorId
  | WebhookErrorId
  | ServiceProviderErrorId
  | PayoutAccountErrorId
  | 'internal_error';

/**
 * Errors of the domain. Each carries the stable `id` integrations read; the HTTP layer maps ids to
 * statuses in one table (`shared/http/error-status.ts`), so no rule here knows about HTTP.
 */
export class DomainError extends Error {
  /**
   * The interface answers a few errors with `{"message"}` alone, and integrations compare that
   * body: such an error sets this, and the HTTP layer leaves out `id` and `extras`.
   */
  readonly messageOnly: boolean = false;

  constructor(
    readonly id: ErrorId,
    message: string,
    readonly extras: unknown = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
