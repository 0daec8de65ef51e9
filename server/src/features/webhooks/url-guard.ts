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
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT, RFC 2765/6145): not routed on the internet
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

/**
 * The only IPv6 space that is routed on the internet (IANA IPv6 Address Space registry): anything
 * outside 2000::/3 is refused even when no block above names it, so an unlisted special form (as
 * ::ffff:0:a.b.c.d was) cannot slip through. The exceptions are the two forms that lead to a
 * public IPv4 address: IPv4-mapped (the kernel connects to the IPv4 address itself) and the
 * well-known NAT64 prefix 64:ff9b::/96 (globally reachable, RFC 6052).
 */
const GLOBAL_UNICAST_V6: readonly [string, number] = ['2000::', 3];

// Two lists: one BlockList matches IPv4 addresses against IPv6 rules too (::ffff:0:0/96 would block all).
const blockedV4 = new BlockList();
for (const [net, prefix] of BLOCKED_IPV4) blockedV4.addSubnet(net, prefix, 'ipv4');
const blockedV6 = new BlockList();
for (const [net, prefix] of BLOCKED_IPV6) blockedV6.addSubnet(net, prefix, 'ipv6');
const globalV6 = new BlockList();
globalV6.addSubnet(GLOBAL_UNICAST_V6[0], GLOBAL_UNICAST_V6[1], 'ipv6');

/**
 * The 16 bytes of an IPv6 address in any written form, or null. The WHATWG URL parser reads it
 * (zero-padded or compressed groups, any case, a dotted quad at the end) and writes it back in its
 * one canonical form — eight hex groups at most, one "::" — which is all that is split here.
 */
function ipv6Bytes(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://[${address}]/`).hostname;
  } catch {
    return null;
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [head = '', rest] = hostname.slice(1, -1).split('::') as [string, string | undefined];
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const words = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (words.length !== 8 || words.some((w) => !(w >= 0 && w <= 0xffff))) return null;
  return words.flatMap((w) => [w >> 8, w & 255]);
}

type Form = 'mapped' | 'translated' | 'compatible' | 'nat64' | 'nat64-local' | '6to4' | 'teredo' | 'isatap';

/** Does the address start with these bytes? */
const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const dotted = (four: number[]) => four.join('.');
const ZEROS_10 = new Array<number>(10).fill(0);

/**
 * Every IPv4 address an IPv6 address carries inside it, by the form that carries it. Each is
 * judged by the IPv4 rules: a private one refuses the address, whatever its IPv6 block.
 */
export function embeddedIpv4(bytes: number[]): Array<{ form: Form; ipv4: string }> {
  const last4 = dotted(bytes.slice(12, 16));
  const found: Array<{ form: Form; ipv4: string }> = [];
  if (startsWith(bytes, [...ZEROS_10, 0xff, 0xff])) found.push({ form: 'mapped', ipv4: last4 }); // ::ffff:a.b.c.d
  else if (startsWith(bytes, [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0])) found.push({ form: 'translated', ipv4: last4 }); // ::ffff:0:a.b.c.d
  else if (startsWith(bytes, [...ZEROS_10, 0, 0])) found.push({ form: 'compatible', ipv4: last4 }); // ::a.b.c.d
  else if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) found.push({ form: 'nat64', ipv4: last4 }); // 64:ff9b::a.b.c.d
  else if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) {
    // 64:ff9b:1::/48 (RFC 8215) with the operator's prefix length: RFC 6052 §2.2 puts the IPv4
    // address after the prefix and skips byte 8. Every length that fits is a candidate.
    for (const at of [[6, 7, 9, 10], [7, 9, 10, 11], [9, 10, 11, 12], [12, 13, 14, 15]]) found.push({ form: 'nat64-local', ipv4: dotted(at.map((i) => bytes[i]!)) });
  } else if (startsWith(bytes, [0x20, 0x02])) found.push({ form: '6to4', ipv4: dotted(bytes.slice(2, 6)) }); // 2002:AABB:CCDD::
  else if (startsWith(bytes, [0x20, 0x01, 0, 0])) {
    // Teredo (RFC 4380): the server's address, and the client's stored inverted.
    found.push({ form: 'teredo', ipv4: dotted(bytes.slice(4, 8)) }, { form: 'teredo', ipv4: dotted(bytes.slice(12, 16).map((b) => b ^ 0xff)) });
  }
  // ISATAP (RFC 5214): any /64 with the interface identifier 0:5efe:a.b.c.d or 200:5efe:a.b.c.d.
  if ((bytes[8]! & 0xfc) === 0 && startsWith(bytes.slice(9, 12), [0, 0x5e, 0xfe])) found.push({ form: 'isatap', ipv4: last4 });
  return found;
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
  const mapped = embeddedIpv4(bytes).find((e) => e.form === 'mapped');
  return mapped ? mapped.ipv4 : bytes.join('.');
}

/** True when a webhook must not be sent to this address (or when it is not an address at all). */
export function isPrivateAddress(raw: string): boolean {
  const address = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 0) return true;
  const own = ownAddresses();
  if (own.has(canonical(address))) return true;
  if (family === 4) return blockedV4.check(address, 'ipv4');
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  const carried = embeddedIpv4(bytes);
  // Every IPv4 address the form carries is judged by the IPv4 rules, whatever the IPv6 block.
  if (carried.some(({ ipv4 }) => blockedV4.check(ipv4, 'ipv4') || own.has(ipv4))) return true;
  // The mapped form of a public IPv4 address is that public address; NAT64 of one is reachable.
  if (carried.some(({ form }) => form === 'mapped' || form === 'nat64')) return false;
  return !globalV6.check(address, 'ipv6') || blockedV6.check(address, 'ipv6');
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
