import type { ErrorId } from '#shared/domain/errors.ts';

/** The one place where a domain error id becomes an HTTP status (statuses of the field contract). */
export const statusByErrorId: Record<ErrorId, number> = {
  bad_request: 400,
  unauthorized: 401,
  business_not_enabled_for_api_access: 403,
  forbidden_action: 403,
  not_found: 404,
  store_not_found: 404,
  device_not_found: 404,
  business_not_found: 404,
  validation_error: 422,
  conflict: 409,
  insufficient_balance: 422,
  payment_request_not_found: 404,
  payment_request_exists_with_reference: 409,
  // The provider refused the payer at once (e.g. the phone is not on that provider): the request
  // as sent cannot succeed, and the field contract says 400.
  third_party_payment_provider_error: 400,
  collection_ceiling_exceeded: 422,
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
  payment_link_not_found: 404,
  // The link exists but cannot take this payment (paid, or being paid): a conflict with its state.
  E_PAYMENT_LINK_IS_INVALID: 409,
  webhook_subscription_not_found: 404,
  webhook_subscription_exists: 409,
  already_linked: 409,
  webhook_delivery_not_found: 404,
  contact_not_found: 404,
  transfer_not_found: 404,
  transfer_exists_with_reference: 409,
  message_not_found: 404,
  message_exists_with_reference: 409,
  insufficient_sms_balance: 422,
  escrow_not_found: 404,
  escrow_already_released: 409,
  escrow_already_refunded: 409,
  escrow_not_held: 409,
  internal_error: 500,
};
