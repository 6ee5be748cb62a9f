import type { ComplianceVerificationResponse, LinkRequestResponse } from '#shared/api/service-providers.ts';
import type { ComplianceVerification } from '#shared/data/compliance-verification.ts';
import type { LinkRequest } from '#shared/data/link-request.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';

/** The events a service provider hears of the merchants it acts for. */

/** The interface's Business link request (the code's digest and attempt count stay inside). */
export const linkRequestResponse = (request: LinkRequest): LinkRequestResponse => ({
  id: request.id,
  status: request.status,
  merchantBusinessId: request.merchantBusinessId,
  merchantBusinessName: request.merchantBusinessName,
  serviceProviderBusinessId: request.serviceProviderBusinessId,
  serviceProviderBusinessName: request.serviceProviderBusinessName,
  serviceProviderMemberId: request.serviceProviderMemberId,
  ownerPhone: request.ownerPhone,
  expiresAt: request.expiresAt,
  createdAt: request.createdAt,
});

/** SERVICE_PROVIDER_LINK_REQUEST, once when a request is made and once when it ends. */
export function linkRequestEvent(request: LinkRequest): ServiceEvent {
  return {
    id: `SERVICE_PROVIDER_LINK_REQUEST:${request.id}:${request.status}`,
    name: 'SERVICE_PROVIDER_LINK_REQUEST',
    businessId: request.serviceProviderBusinessId,
    body: {
      ...linkRequestResponse(request),
      ...(request.declinedReason ? { declinedReason: request.declinedReason } : {}),
    },
    createdAt: request.updatedAt,
  };
}

/** The interface's Compliance verification. */
export const verificationResponse = (
  verification: ComplianceVerification,
): ComplianceVerificationResponse => ({
  id: verification.id,
  type: verification.type,
  status: verification.status,
  merchantBusinessId: verification.merchantBusinessId,
  url: verification.url,
  callbackUrl: verification.callbackUrl ?? null,
  ...(verification.rejectionReason ? { rejectionReason: verification.rejectionReason } : {}),
});

/**
 * COMPLIANCE_VERIFICATION_COMPLETED, to the provider that started the verification; one the owner
 * started concerns nobody else.
 */
export function verificationCompletedEvent(verification: ComplianceVerification): ServiceEvent | undefined {
  if (!verification.serviceProviderBusinessId) return undefined;
  return {
    id: `COMPLIANCE_VERIFICATION_COMPLETED:${verification.id}`,
    name: 'COMPLIANCE_VERIFICATION_COMPLETED',
    businessId: verification.serviceProviderBusinessId,
    body: verificationResponse(verification),
    createdAt: verification.updatedAt,
  };
}
