import { createHash, randomBytes } from 'node:crypto';
import {
  type DashboardSession,
  deleteSession,
  getSession,
  putSession,
  sessionEndsAt,
  touchEveryMs,
  touchSession,
} from '#shared/data/dashboard-session.ts';
import { listOwnedBusinesses } from '#shared/data/user.ts';

/** What the browser holds: 32 random bytes, base64url (43 characters, cookie-safe). */
const sessionIdPattern = /^[A-Za-z0-9_-]{43}$/;

export const sessionIdHash = (id: string) => createHash('sha256').update(id).digest('hex');

/** A new session for `userId`: a fresh id every sign-in, so an id planted before it is worth nothing. */
export async function startSession(userId: string, now = new Date()): Promise<{ id: string }> {
  const id = randomBytes(32).toString('base64url');
  await putSession({
    idHash: sessionIdHash(id),
    userId,
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
  await deleteSession(session.idHash);
}

/** The businesses the signed-in person owns, for the dashboard's home. */
export const businessesOf = (session: DashboardSession) => listOwnedBusinesses(session.userId);
