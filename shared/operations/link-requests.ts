import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { getBusiness } from '#shared/data/business.ts';
import {
  getLinkRequest,
  type LinkRequest,
  newLinkRequestWrite,
  settleLinkRequestWrite,
  wrongCodeWrite,
} from '#shared/data/link-request.ts';
import { listMemberships } from '#shared/data/membership.ts';
import { getLink, linkWrite } from '#shared/data/service-provider-link.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { findUserByPhone } from '#shared/data/user.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import { Conflict } from '#shared/errors/request.ts';
import {
  AlreadyLinked,
  BusinessLinkRequestNotFound,
  NoOwnedBusiness,
  UserNotFound,
} from '#shared/errors/service-providers.ts';
import { linkRequestResponse } from '#shared/events/partner-events.ts';
import { count } from '#shared/metrics.ts';
import { sendPlatformSms } from '#shared/operations/messages.ts';

/** How long the owner has to answer. */
export const linkRequestLifetimeMs = 7 * 24 * 3600 * 1000;
/** Wrong codes before the request is declined: 5 tries at a 6-digit code is a 1 in 200 000 guess. */
export const maxCodeAttempts = 5;

export const consentPageUrl = (baseUrl: string, id: string) => `${baseUrl}/lr/${encodeURIComponent(id)}`;

const codeHash = (requestId: string, code: string) =>
  createHash('sha256').update(`${requestId}:${code}`).digest('hex');

/**
 * One pending request per business the phone's user owns, each with its own code sent by SMS with
 * the consent page's address. Refused as a whole when the user is unknown (404 `user_not_found`),
 * owns nothing (409 `no_owned_business`) or one of their businesses is already linked to this
 * provider (409 `already_linked`, with that business's id).
 */
export async function createLinkRequests(caller: Caller, phone: string, baseUrl: string, now = new Date()) {
  const user = await findUserByPhone(phone);
  if (!user) throw new UserNotFound();
  const owned = (await listMemberships(user.id)).filter((membership) => membership.role === 'owner');
  if (owned.length === 0) throw new NoOwnedBusiness();
  const links = await Promise.all(owned.map((business) => getLink(caller.businessId, business.businessId)));
  const linked = owned.find((_, index) => links[index] !== undefined);
  if (linked) throw new AlreadyLinked(linked.businessId);
  const provider = await getBusiness(caller.businessId);
  if (!provider) throw new BusinessNotFound();

  const created: LinkRequest[] = [];
  for (const business of owned) {
    const id = randomUUID();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const request: LinkRequest = {
      id,
      status: 'pending',
      merchantBusinessId: business.businessId,
      merchantBusinessName: business.businessName,
      serviceProviderBusinessId: provider.id,
      serviceProviderBusinessName: provider.name,
      serviceProviderMemberId: caller.memberId,
      ownerPhone: user.phone,
      expiresAt: new Date(now.getTime() + linkRequestLifetimeMs).toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      codeHash: codeHash(id, code),
      codeAttempts: 0,
    };
    // Its SERVICE_PROVIDER_LINK_REQUEST leaves from the table's stream (shared/events/).
    await transactWrite([newLinkRequestWrite(request)]);
    count('LinkRequestsCreated');
    await sendPlatformSms({
      to: user.phone,
      reference: `link-request:${id}`,
      body: `${provider.name} demande à gérer ${business.businessName}. Code : ${code}. Répondez sur ${consentPageUrl(baseUrl, id)}`,
    });
    created.push(request);
  }
  return created.map(linkRequestResponse);
}

/** The request as its provider sees it; another provider's is not found. */
export async function linkRequestOf(caller: Caller, id: string, now = new Date()) {
  const request = await currentLinkRequest(id, now);
  if (request.serviceProviderBusinessId !== caller.businessId) throw new BusinessLinkRequestNotFound();
  return linkRequestResponse(request);
}

/**
 * The request, expired on the way if its time has passed. Expiry is settled when a request is next
 * read (by its provider, the owner's page or a consent), which is when it matters; the event then
 * goes to the provider.
 */
export async function currentLinkRequest(id: string, now = new Date()): Promise<LinkRequest> {
  // Pages pass their path as is: an id that cannot be one is not looked up.
  const request = uuidPattern.test(id) ? await getLinkRequest(id) : undefined;
  if (!request) throw new BusinessLinkRequestNotFound();
  if (request.status !== 'pending' || new Date(request.expiresAt) > now) return request;
  return (await settle(request, 'expired', now)) ?? request;
}

export type ConsentDecision = 'approve' | 'decline';

export type ConsentOutcome =
  | { outcome: 'settled'; request: LinkRequest }
  | { outcome: 'wrong_code'; request: LinkRequest; attemptsLeft: number }
  | { outcome: 'closed'; request: LinkRequest };

/**
 * The owner's answer on the consent page. The code must match; each wrong one is counted, and the
 * last allowed wrong one declines the request (`too_many_code_attempts`).
 */
export async function answerLinkRequest(
  id: string,
  code: string,
  decision: ConsentDecision,
  now = new Date(),
): Promise<ConsentOutcome> {
  const request = await currentLinkRequest(id, now);
  if (request.status !== 'pending') return { outcome: 'closed', request };
  const presented = Buffer.from(codeHash(id, code.trim()), 'hex');
  if (!timingSafeEqual(presented, Buffer.from(request.codeHash, 'hex'))) {
    const attempts = request.codeAttempts + 1;
    if (attempts >= maxCodeAttempts) {
      const declined = await settle(request, 'declined', now, 'too_many_code_attempts');
      return { outcome: 'closed', request: declined ?? (await currentLinkRequest(id, now)) };
    }
    await transactWrite([wrongCodeWrite(id, request.codeAttempts, now.toISOString())]);
    return { outcome: 'wrong_code', request, attemptsLeft: maxCodeAttempts - attempts };
  }
  const settled = await settle(request, decision === 'approve' ? 'approved' : 'declined', now);
  return settled
    ? { outcome: 'settled', request: settled }
    : { outcome: 'closed', request: await currentLinkRequest(id, now) };
}

/** The sandbox's stand-in for the owner's consent, for the provider's own tests. */
export async function settleSandboxLinkRequest(caller: Caller, id: string, decision: ConsentDecision) {
  const request = await currentLinkRequest(id);
  if (request.serviceProviderBusinessId !== caller.businessId) throw new BusinessLinkRequestNotFound();
  if (request.status !== 'pending') throw new Conflict(`The link request is ${request.status}`);
  const settled = await settle(request, decision === 'approve' ? 'approved' : 'declined', new Date());
  if (!settled) throw new Conflict('The link request is no longer pending');
  return linkRequestResponse(settled);
}

/**
 * Moves a pending request to its outcome, with the link (on approval) in the same transaction; the
 * provider's event leaves from the table's stream. Undefined when another answer got there first.
 */
async function settle(
  request: LinkRequest,
  status: 'approved' | 'declined' | 'expired',
  now: Date,
  declinedReason?: string,
): Promise<LinkRequest | undefined> {
  const at = now.toISOString();
  const settled: LinkRequest = { ...request, status, updatedAt: at, declinedReason };
  const writes: GuardedWrite[] = [settleLinkRequestWrite(request.id, status, at, declinedReason)];
  const link = status === 'approved' && {
    id: randomUUID(),
    serviceProviderBusinessId: request.serviceProviderBusinessId,
    serviceProviderBusinessName: request.serviceProviderBusinessName,
    merchantBusinessId: request.merchantBusinessId,
    merchantBusinessName: request.merchantBusinessName,
    linkedAt: at,
  };
  try {
    await transactWrite(link ? [...writes, linkWrite(link)] : writes);
  } catch (error) {
    if (error instanceof AlreadyLinked) {
      // Linked since the request was made (another request approved): the consent still stands.
      await transactWrite(writes).catch((retry) => {
        if (!(retry instanceof Conflict)) throw retry;
      });
    } else if (error instanceof Conflict) {
      return undefined;
    } else {
      throw error;
    }
  }
  count('LinkRequestsSettled', { outcome: status });
  return settled;
}
