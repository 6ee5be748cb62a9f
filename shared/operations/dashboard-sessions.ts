import { createHash, randomBytes } from 'node:crypto';
import {
  type DashboardSession,
  deleteSession,
  getSession,
  putSession,
  sessionEndsAt,
  sessionHashesOfUser,
  touchEveryMs,
  touchSession,
} from '#shared/data/dashboard-session.ts';
import { listMemberships, type Membership } from '#shared/data/membership.ts';

/** What the browser holds: 32 random bytes, base64url (43 characters, cookie-safe). */
const sessionIdPattern = /^[A-Za-z0-9_-]{43}$/;

export const sessionIdHash = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * A new session for `userId`: a fresh id every sign-in, so an id planted before it is worth nothing.
 * It acts for `chosen` (a business just joined), or for the user's only business; a person with
 * several picks one on the businesses page.
 */
export async function startSession(
  userId: string,
  now = new Date(),
  chosen?: Pick<Membership, 'businessId' | 'memberId'>,
): Promise<{ id: string }> {
  const id = randomBytes(32).toString('base64url');
  const memberships = chosen ? [] : await listMemberships(userId);
  const acting = chosen ?? (memberships.length === 1 ? memberships[0] : undefined);
  await putSession({
    idHash: sessionIdHash(id),
    userId,
    businessId: acting?.businessId,
    memberId: acting?.memberId,
    csrfToken: randomBytes(32).toString('base64url'),
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
  });
  return { id };
}

/**
 * The live session of this id, or undefined (unknown, malformed, idle for 30 minutes, or 12 hours
 * old). Its lastSeen moves on when a few minutes have passed, to keep writes few.
 */
export async function resumeSession(id: string | undefined, now = new Date()) {
  if (!id || !sessionIdPattern.test(id)) return undefined;
  const session = await getSession(sessionIdHash(id));
  if (!session || sessionEndsAt(session) <= now.getTime()) return undefined;
  if (now.getTime() - new Date(session.lastSeenAt).getTime() >= touchEveryMs)
    await touchSession(session, now);
  return session;
}

export async function endSession(session: DashboardSession): Promise<void> {
  await deleteSession(session);
}

/** Ends every session of the session's user, this one included: "sign out everywhere". */
export async function endAllSessions(session: DashboardSession): Promise<number> {
  const hashes = new Set([...(await sessionHashesOfUser(session.userId)), session.idHash]);
  await Promise.all([...hashes].map((idHash) => deleteSession({ idHash, userId: session.userId })));
  return hashes.size;
}
