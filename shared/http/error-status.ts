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
  internal_error: 500,
};
