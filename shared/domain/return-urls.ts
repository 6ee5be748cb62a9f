/**
 * A merchant's success or error URL, as something a page may send the payer to. Return URLs may
 * be web addresses or app deep links with the app's own scheme (`myapp://paid?reference=x`), so
 * the rule is a list of what is refused rather than of what is allowed:
 * - schemes that run script in the page's origin (`javascript:` and its old aliases);
 * - schemes that carry or open content without a site behind it (`data:`, `blob:`, `file:`), or
 *   reach into an archive or the browser itself (`jar:`, `ms-its:`, `view-source:`, `about:`);
 * - plain `http:` in production, where the payer's browser would leave a payment page for an
 *   address anyone on the network can rewrite. Sandbox stages and the local host allow it, for
 *   merchants testing against their own laptop.
 */
const refusedSchemes = new Set([
  'javascript',
  'livescript',
  'vbscript',
  'jscript',
  'ecmascript',
  'mocha',
  'data',
  'blob',
  'file',
  'filesystem',
  'jar',
  'ms-its',
  'mhtml',
  'mk',
  'its',
  'view-source',
  'about',
  'chrome',
  'chrome-extension',
  'moz-extension',
  'resource',
]);

export interface ReturnUrlPolicy {
  allowHttp: boolean;
}

export const returnUrlPolicy = (): ReturnUrlPolicy => ({ allowHttp: process.env.SANDBOX === 'true' });

/** Why a return URL may not be followed, or undefined when it may. */
export function refusedReturnUrl(
  url: string,
  policy: ReturnUrlPolicy = returnUrlPolicy(),
): string | undefined {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\S+$/.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'not an absolute URL or app link';
  if (refusedSchemes.has(scheme)) return `the ${scheme} scheme is refused`;
  if (scheme === 'http' && !policy.allowHttp) return 'http is refused in production: use https';
  if (scheme === 'http' || scheme === 'https') {
    // Browsers read `https:///x` or `https:\\x` as a host of `x`: only the plain form is taken.
    if (!/^https?:\/\/[^/\\?#]/i.test(url) || !URL.canParse(url)) return 'not a valid web address';
  }
  return undefined;
}

export function isFollowableReturnUrl(url: string | undefined | null): url is string {
  return !!url && refusedReturnUrl(url) === undefined;
}
