import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach (SSRF): loopback, private, link-local (cloud metadata
 * lives at 169.254.169.254), carrier-grade NAT, multicast, unspecified, and their IPv6 forms.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export class UnsafeUrlError extends Error {}

/** Checks a webhook URL's form, and (unless private targets are allowed) where it resolves to. */
export async function assertSafeWebhookUrl(raw: string, options: { allowPrivate: boolean; requireHttps: boolean }): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('The URL is not valid.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeUrlError('The URL must start with https:// or http://.');
  if (options.requireHttps && url.protocol !== 'https:') throw new UnsafeUrlError('The URL must use https://.');
  if (url.username || url.password) throw new UnsafeUrlError('The URL must not contain a user name or password.');
  if (options.allowPrivate) return url;
  // "localhost." (fully qualified, trailing dot) is the same name as "localhost".
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    throw new UnsafeUrlError('The URL points at a private or local address.');
  }
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  if (addresses.length === 0) throw new UnsafeUrlError(`The host ${host} does not resolve.`);
  if (addresses.some(isPrivateAddress)) throw new UnsafeUrlError('The URL points at a private or local address.');
  return url;
}

async function resolveAll(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
}
