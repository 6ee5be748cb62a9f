import { attemptMinutes } from '#shared/data/payment-link.ts';

/**
 * The browser's hold on a single-use link: the token of its latest attempt, so that after a
 * declined payment or a step back from the provider it can start over at once, while anyone else
 * waits for the attempt to lapse. HttpOnly (no script needs it), SameSite=Lax (sent on the
 * customer's own navigation, not on another site's posts), scoped to the one link's page, and
 * kept only as long as the claim it stands for.
 */
export const attemptCookieName = 'pl_attempt';

/** What payThroughLink hands out (hex), with room to change; nothing that could break the header. */
const tokenPattern = /^[A-Za-z0-9_-]{16,128}$/;

/** The Set-Cookie value for `token`, on the link page under `baseUrl` (which may carry a stage path). */
export function attemptCookie(linkId: string, token: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  const path = `${base.pathname.replace(/\/$/, '')}/pl/${encodeURIComponent(linkId)}`;
  return [
    `${attemptCookieName}=${token}`,
    `Path=${path}`,
    `Max-Age=${attemptMinutes * 60}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(base.protocol === 'https:' ? ['Secure'] : []),
  ].join('; ');
}

/** The token in a request's Cookie header; anything that is not a token we made is ignored. */
export function attemptTokenFrom(cookieHeader: string | undefined): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [name = '', ...value] = pair.split('=');
    if (name.trim() !== attemptCookieName) continue;
    const token = value.join('=').trim();
    if (tokenPattern.test(token)) return token;
  }
  return undefined;
}
