import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * Addresses a webhook must never reach (SSRF): every block of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (loopback, private, link-local — cloud metadata lives at
 * 169.254.169.254 —, carrier-grade NAT, documentation, benchmarking, multicast, reserved, and the
 * IPv6 transition forms that carry an IPv4 address inside), plus this host's own interface
 * addresses (a webhook to our public address would reach the server itself).
 */
export const BLOCKED_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.31.196.0', 24], // AS112-v4
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // direct delegation AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 (limited broadcast)
];

export const BLOCKED_IPV6: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0', 96], // IPv4-mapped: blocked outright here, but checked by the IPv4 inside first
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHIDv2 2001:20::/28, …
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (carries an IPv4 address, often a private one)
  ['2620:4f:8000::', 48], // direct delegation AS112
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing (SRv6) SIDs
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

// Two lists: one BlockList matches IPv4 addresses against IPv6 rules too (::ffff:0:0/96 would block all).
const blockedV4 = new BlockList();
for (const [net, prefix] of BLOCKED_IPV4) blockedV4.addSubnet(net, prefix, 'ipv4');
const blockedV6 = new BlockList();
for (const [net, prefix] of BLOCKED_IPV6) blockedV6.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address in any textual form (::, embedded dotted quad), or null. */
function ipv6Bytes(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  const text = address.toLowerCase().replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a, b, c, d) => {
    const word = (hi: string, lo: string) => ((Number(hi) << 8) | Number(lo)).toString(16);
    return `${word(a, b)}:${word(c, d)}`;
  });
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [head = '', rest] = text.split('::') as [string, string | undefined];
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const words = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((w) => [w >> 8, w & 255]);
}

/** The IPv4 address an IPv6 form carries (mapped, compatible, NAT64, 6to4), if it has one. */
function embeddedIpv4(bytes: number[]): string | null {
  const v4 = (at: number) => bytes.slice(at, at + 4).join('.');
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(12); // ::ffff:a.b.c.d
  if (zeros(0, 12)) return v4(12); // ::a.b.c.d
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return v4(12); // 64:ff9b::/96
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(2); // 2002:AABB:CCDD::
  return null;
}

/** This host's own addresses, read each time (interfaces come and go; the call is cheap). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) own.add(canonical(entry.address.replace(/%.*$/, '')));
  }
  return own;
}

/** One spelling per address, so "::FFFF:7f00:1" and "::ffff:127.0.0.1" compare equal. */
function canonical(address: string): string {
  const bytes = ipv6Bytes(address);
  if (!bytes) return address;
  const v4 = embeddedIpv4(bytes);
  if (v4 && bytes[10] === 0xff) return v4;
  return bytes.join('.');
}

/** True when a webhook must not be sent to this address (or when it is not an address at all). */
export function isPrivateAddress(raw: string): boolean {
  const address = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 0) return true;
  if (ownAddresses().has(canonical(address))) return true;
  if (family === 4) return blockedV4.check(address, 'ipv4');
  const bytes = ipv6Bytes(address)!;
  const v4 = embeddedIpv4(bytes);
  // A transition form is judged by the IPv4 address it leads to as well as by its own block.
  if (v4 && (blockedV4.check(v4, 'ipv4') || ownAddresses().has(v4))) return true;
  // The mapped form of a public IPv4 address is that public address: let it through.
  if (v4 && bytes[10] === 0xff && bytes[11] === 0xff && bytes.slice(0, 10).every((b) => b === 0)) return false;
  // NAT64 of a public address is globally reachable (RFC 6052); other blocks are refused outright.
  if (v4 && bytes[0] === 0x00 && bytes[1] === 0x64) return false;
  return blockedV6.check(address, 'ipv6');
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
