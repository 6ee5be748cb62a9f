import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { DashboardSession } from '#shared/data/dashboard-session.ts';
import { putShownOnce, takeShownOnce } from '#shared/data/shown-once.ts';
import { cookieValue, sessionCookieName } from '#shared/http/dashboard-session.ts';
import type { PageRequest } from '#shared/http/page-handler.ts';

/**
 * Post, then redirect, for a value shown once (issue 35): the post that makes a secret keeps it
 * for the page it redirects to, which takes it; a reload of that page shows it no more and makes
 * nothing (the post is not sent again).
 *
 * The table never holds the secret in the clear: it is sealed with AES-256-GCM under a key derived
 * (HKDF-SHA256) from the session id in the browser's cookie, which the table does not have (it
 * keeps the id's hash only). A copy of the table opens nothing; another session cannot open it; and
 * it is gone once shown, or 10 minutes after it was made.
 */
export type ShownOnceKind = 'api-key' | 'webhook-secret';

const keptForMs = 10 * 60_000;

const keyFor = (sessionId: string, kind: ShownOnceKind) =>
  Buffer.from(hkdfSync('sha256', sessionId, '', `dashboard shown-once ${kind}`, 32));

const sessionIdOf = (request: PageRequest<object>) =>
  cookieValue(request.headers.cookie, sessionCookieName(request.baseUrl)) ?? '';

/** Keeps `value` for this session's next look at the page that shows it. */
export async function keepToShowOnce(
  request: PageRequest<object>,
  session: DashboardSession,
  kind: ShownOnceKind,
  value: unknown,
  now = new Date(),
): Promise<void> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(sessionIdOf(request), kind), iv);
  cipher.setAAD(Buffer.from(`${session.idHash}:${kind}`));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  await putShownOnce(session.idHash, kind, {
    iv: iv.toString('base64url'),
    sealed: sealed.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
    expiresAt: new Date(now.getTime() + keptForMs).toISOString(),
  });
}

/**
 * The value kept for this session, taken (deleted) by this very call; undefined when there is none,
 * it was shown already, it is past its 10 minutes, or it does not open with this session's cookie.
 */
export async function takeToShowOnce<T>(
  request: PageRequest<object>,
  session: DashboardSession,
  kind: ShownOnceKind,
  now = new Date(),
): Promise<T | undefined> {
  const kept = await takeShownOnce(session.idHash, kind);
  if (!kept || new Date(kept.expiresAt).getTime() <= now.getTime()) return undefined;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyFor(sessionIdOf(request), kind),
      Buffer.from(kept.iv, 'base64url'),
    );
    decipher.setAAD(Buffer.from(`${session.idHash}:${kind}`));
    decipher.setAuthTag(Buffer.from(kept.tag, 'base64url'));
    const opened = Buffer.concat([decipher.update(Buffer.from(kept.sealed, 'base64url')), decipher.final()]);
    return JSON.parse(opened.toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
