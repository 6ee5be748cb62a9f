import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may be sent. On deployed stages: https only, and never to private, loopback,
 * link-local or otherwise internal addresses (SSRF: a merchant must not make the service call into
 * its own network or the cloud metadata endpoint). The local host allows plain http to loopback so
 * developers can receive on their laptop. The check runs when a subscription is saved and again on
 * every delivery against the addresses DNS gives then, since a name can be re-pointed.
 */
export interface WebhookUrlPolicy {
  requireHttps: boolean;
  allowLoopback: boolean;
}

export const webhookUrlPolicy = (): WebhookUrlPolicy => ({
  requireHttps: process.env.WEBHOOKS_ALLOW_LOOPBACK !== 'true',
  allowLoopback: process.env.WEBHOOKS_ALLOW_LOOPBACK === 'true',
});

const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // The unspecified address and the deprecated IPv4-compatible form (::127.0.0.1 is ::7f00:1).
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  // Deprecated site-local addresses.
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  // 6to4 and Teredo tunnel addresses carry an IPv4 address inside, private ones included;
  // no legitimate webhook endpoint needs them.
  ['2002::', 16],
  ['2001::', 32],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Why an address may not receive webhooks, or undefined when it may. */
export function refusedAddress(address: string, policy: WebhookUrlPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return refusedAddress(mapped, policy);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(address, type))
    return policy.allowLoopback ? undefined : `${address} is a loopback address`;
  if (internal.check(address, type)) return `${address} is a private, link-local or reserved address`;
  return undefined;
}

/** Why a URL may not receive webhooks (before DNS), or undefined when it may. */
export function refusedWebhookUrl(value: string, policy: WebhookUrlPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !policy.requireHttps))
    return 'must use https';
  if (url.username || url.password) return 'must not carry credentials';
  // A trailing dot names the same host ("localhost." is localhost).
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (isIP(host)) return refusedAddress(host, policy);
  if (host === 'localhost' || host.endsWith('.localhost'))
    return policy.allowLoopback ? undefined : 'must not point at localhost';
  if (!host.includes('.')) return 'must name a public host';
  return undefined;
}
