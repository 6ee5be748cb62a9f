/**
 * A merchant's success or error URL, as something a page may send the payer to. Return URLs may
 * be app deep links with any scheme (`myapp://paid?reference=x`), so only the schemes that run
 * code or read local data in the browser are refused.
 */
export function isFollowableReturnUrl(url: string | undefined | null): url is string {
  if (!url) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  return scheme !== undefined && !['javascript', 'vbscript', 'data', 'file', 'blob'].includes(scheme);
}
