import { describe, expect, it, vi } from 'vitest';
import { createSender } from './sender';
import { BLOCKED_IPV4, BLOCKED_IPV6, UnsafeUrlError, assertSafeWebhookUrl, isPrivateAddress } from './url-guard';

// This host's "own" public address for the test: 8.8.4.4 would otherwise be accepted.
const OWN_PUBLIC_V4 = '8.8.4.4';
const OWN_PUBLIC_V6 = '2a00:1450:4001:800::200e';
vi.mock('node:os', async (importOriginal) => {
  const os = await importOriginal<typeof import('node:os')>();
  const fake = () => ({
    ...os.networkInterfaces(),
    eth9: [
      { address: OWN_PUBLIC_V4, netmask: '255.255.255.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: false, cidr: `${OWN_PUBLIC_V4}/24` },
      { address: `${OWN_PUBLIC_V6.toUpperCase()}`, netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '00:00:00:00:00:00', internal: false, cidr: null, scopeid: 0 },
    ],
  });
  return { ...os, default: { ...os, networkInterfaces: fake }, networkInterfaces: fake };
});

/** Every special-purpose block, with one address inside it (first, middle-ish and last forms). */
const REFUSED: Array<[range: string, address: string]> = [
  ['0.0.0.0/8 this network', '0.1.2.3'],
  ['10.0.0.0/8 private', '10.255.255.254'],
  ['100.64.0.0/10 shared (CGN)', '100.127.0.1'],
  ['127.0.0.0/8 loopback', '127.0.0.1'],
  ['127.0.0.0/8 loopback, far end', '127.255.255.254'],
  ['169.254.0.0/16 link-local (cloud metadata)', '169.254.169.254'],
  ['172.16.0.0/12 private', '172.31.255.1'],
  ['192.0.0.0/24 IETF protocol assignments', '192.0.0.9'],
  ['192.0.2.0/24 TEST-NET-1', '192.0.2.1'],
  ['192.31.196.0/24 AS112', '192.31.196.1'],
  ['192.52.193.0/24 AMT', '192.52.193.1'],
  ['192.88.99.0/24 6to4 relay anycast', '192.88.99.1'],
  ['192.168.0.0/16 private', '192.168.1.1'],
  ['192.175.48.0/24 AS112 direct delegation', '192.175.48.1'],
  ['198.18.0.0/15 benchmarking', '198.19.255.1'],
  ['198.51.100.0/24 TEST-NET-2', '198.51.100.7'],
  ['203.0.113.0/24 TEST-NET-3', '203.0.113.99'],
  ['224.0.0.0/4 multicast', '239.255.255.250'],
  ['240.0.0.0/4 reserved', '240.0.0.1'],
  ['255.255.255.255 limited broadcast', '255.255.255.255'],
  ['::/128 unspecified', '::'],
  ['::1/128 loopback', '::1'],
  ['::/96 IPv4-compatible (hex)', '::7f00:1'],
  ['::/96 IPv4-compatible (dotted)', '::127.0.0.1'],
  ['::/96 IPv4-compatible of a public address', '::8.8.8.8'],
  ['::ffff:0:0/96 mapped loopback (dotted)', '::ffff:127.0.0.1'],
  ['::ffff:0:0/96 mapped loopback (hex, as WHATWG URL writes it)', '::ffff:7f00:1'],
  ['::ffff:0:0/96 mapped metadata', '::ffff:a9fe:a9fe'],
  ['::ffff:0:0/96 mapped documentation', '::ffff:192.0.2.1'],
  ['::ffff:0:0:0/96 IPv4-translated of loopback', '::ffff:0:7f00:1'],
  ['::ffff:0:0:0/96 IPv4-translated of a public address (not routed on the internet)', '::ffff:0:808:808'],
  ['64:ff9b::/96 NAT64 of a private address', '64:ff9b::10.0.0.1'],
  ['64:ff9b::/96 NAT64 of loopback (hex)', '64:ff9b::7f00:1'],
  ['64:ff9b:1::/48 local-use NAT64', '64:ff9b:1::8.8.8.8'],
  ['100::/64 discard-only', '100::1'],
  ['2001::/32 Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['2001:2::/48 benchmarking', '2001:2::1'],
  ['2001:20::/28 ORCHIDv2', '2001:20::1'],
  ['2001::/23 IETF protocol assignments, far end', '2001:1ff::1'],
  ['2001:db8::/32 documentation', '2001:db8::1'],
  ['2002::/16 6to4 of loopback', '2002:7f00:1::'],
  ['2002::/16 6to4 of metadata', '2002:a9fe:a9fe::'],
  ['2002::/16 6to4 of a public address', '2002:808:808::1'],
  ['2620:4f:8000::/48 AS112 direct delegation', '2620:4f:8000::1'],
  ['3fff::/20 documentation', '3fff:fff::1'],
  ['5f00::/16 SRv6 SIDs', '5f00::1'],
  ['fc00::/7 unique-local', 'fd12:3456:789a::1'],
  ['fc00::/7 unique-local, low half', 'fc00::1'],
  ['fe80::/10 link-local', 'fe80::1'],
  ['fe80::/10 link-local with a zone', 'fe80::1%eth0'],
  ['fec0::/10 site-local (deprecated)', 'fec0::1'],
  ['ff00::/8 multicast', 'ff02::1'],
  ['outside 2000::/3, in no listed block (reserved)', '4000::1'],
  ['outside 2000::/3, in no listed block (near the translated form)', '::ffff:0:0:7f00:1'],
  ['this host (IPv4 interface address)', OWN_PUBLIC_V4],
  ['this host (IPv4 interface address, mapped)', `::ffff:${OWN_PUBLIC_V4}`],
  ['this host (IPv6 interface address)', OWN_PUBLIC_V6],
  ['not an address', 'example.com'],
];

const ACCEPTED: Array<[what: string, address: string]> = [
  ['public IPv4', '8.8.8.8'],
  ['public IPv4 next to a documentation range', '192.0.3.1'],
  ['public IPv4 just past 100.64/10', '100.128.0.1'],
  ['public IPv4 mapped to IPv6', '::ffff:1.1.1.1'],
  ['public IPv6', '2606:4700:4700::1111'],
  ['public IPv6 just past 2001::/23', '2001:200::1'],
  ['NAT64 of a public address (RFC 6052, globally reachable)', '64:ff9b::808:808'],
  ['public IPv4 mapped to IPv6, hex and zero-padded', '0000:0000:0000:0000:0000:FFFF:0808:0808'],
  ['public IPv6 whose interface identifier is ISATAP of a public IPv4', '2606:4700:4700::5efe:808:808'],
];

/** The private IPv4 addresses each written form below must carry and be refused for. */
const PRIVATE_V4 = ['127.0.0.1', '10.1.2.3', '169.254.169.254', '192.168.0.1', '0.0.0.0', '100.64.0.1', OWN_PUBLIC_V4];

const hex = (v4: string) => {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)] as const;
};
const pad = (word: string) => word.padStart(4, '0');

/** Every written form of an IPv6 address that carries `v4` inside it. */
function embeddingForms(v4: string): Array<[form: string, address: string]> {
  const [hi, lo] = hex(v4);
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  const inverted = hex([a, b, c, d].map((x) => x ^ 0xff).join('.'));
  return [
    ['IPv4-mapped, dotted', `::ffff:${v4}`],
    ['IPv4-mapped, hex', `::ffff:${hi}:${lo}`],
    ['IPv4-mapped, upper case', `::FFFF:${hi.toUpperCase()}:${lo.toUpperCase()}`],
    ['IPv4-mapped, uncompressed', `0:0:0:0:0:ffff:${hi}:${lo}`],
    ['IPv4-mapped, zero-padded', `0000:0000:0000:0000:0000:ffff:${pad(hi)}:${pad(lo)}`],
    ['IPv4-mapped, uncompressed dotted', `0:0:0:0:0:ffff:${v4}`],
    ['IPv4-translated, hex', `::ffff:0:${hi}:${lo}`],
    ['IPv4-translated, dotted', `::ffff:0:${v4}`],
    ['IPv4-translated, zero-padded', `0000:0000:0000:0000:ffff:0000:${pad(hi)}:${pad(lo)}`],
    ['IPv4-translated, partly compressed', `0::ffff:0000:${v4}`],
    ['IPv4-compatible, hex', `::${hi}:${lo}`],
    ['IPv4-compatible, dotted', `::${v4}`],
    ['IPv4-compatible, zero-padded', `0000:0000:0000:0000:0000:0000:${pad(hi)}:${pad(lo)}`],
    ['NAT64 64:ff9b::/96, hex', `64:ff9b::${hi}:${lo}`],
    ['NAT64 64:ff9b::/96, dotted', `64:ff9b::${v4}`],
    ['NAT64 64:ff9b::/96, zero-padded', `0064:ff9b:0000:0000:0000:0000:${pad(hi)}:${pad(lo)}`],
    ['NAT64 64:ff9b:1::/48 with a /96 prefix', `64:ff9b:1::${v4}`],
    ['NAT64 64:ff9b:1::/48 with a /48 prefix', `64:ff9b:1:${hi}:${c.toString(16)}:${(d << 8).toString(16)}::`],
    ['6to4 2002::/16', `2002:${hi}:${lo}::1`],
    ['6to4 2002::/16, zero-padded', `2002:${pad(hi)}:${pad(lo)}:0000:0000:0000:0000:0001`],
    ['Teredo, server address', `2001:0:${hi}:${lo}::1`],
    ['Teredo, client address (inverted)', `2001:0:4136:e378:8000:63bf:${inverted[0]}:${inverted[1]}`],
    ['ISATAP interface identifier in a public /64', `2606:4700:4700::5efe:${v4}`],
    ['ISATAP interface identifier (universal bit) in a public /64', `2606:4700:4700:0:200:5efe:${hi}:${lo}`],
  ];
}

const EMBEDDED = PRIVATE_V4.flatMap((v4) => embeddingForms(v4).map(([form, address]): [string, string, string] => [form, v4, address]));

describe('webhook SSRF guard: the IANA special-purpose registries', () => {
  it.each(REFUSED)('refuses %s (%s)', (_range, address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(ACCEPTED)('accepts a %s (%s)', (_what, address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each(EMBEDDED)('refuses the %s form of %s (%s)', (_form, _v4, address) => {
    expect(isPrivateAddress(address)).toBe(true);
    expect(isPrivateAddress(`[${address}]`)).toBe(true);
  });

  it('has an example above for every block it lists (the table stays in step with the list)', () => {
    const ranges = REFUSED.map(([range]) => range).join('\n');
    for (const [net, prefix] of [...BLOCKED_IPV4, ...BLOCKED_IPV6]) {
      const cidr = `${net}/${prefix}`;
      expect(ranges.includes(cidr), `no test row for ${cidr}`).toBe(true);
    }
  });

  describe('at creation (the URL as typed)', () => {
    const check = (url: string) => assertSafeWebhookUrl(url, { allowPrivate: false, requireHttps: false });

    it.each([
      'http://[2002:7f00:1::]/hook',
      'http://[2002:a9fe:a9fe::]/hook',
      'http://[::7f00:1]/hook',
      'http://[::127.0.0.1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:0:7f00:1]/hook',
      'http://[::ffff:0:127.0.0.1]/hook',
      'http://[0:0:0:0:ffff:0:a9fe:a9fe]/hook',
      'http://[64:ff9b::127.0.0.1]/hook',
      'http://[2001::1]/hook',
      'http://[100::1]/hook',
      'http://[2001:db8::1]/hook',
      'http://[3fff::1]/hook',
      'http://192.0.2.1/hook',
      'http://198.51.100.1/hook',
      'http://203.0.113.1/hook',
      'http://192.88.99.1/hook',
      'http://0x7f.1/hook',
      'http://2130706433/hook',
      `http://${OWN_PUBLIC_V4}/hook`,
      `http://[${OWN_PUBLIC_V6}]/hook`,
    ])('refuses %s', async (url) => {
      await expect(check(url)).rejects.toBeInstanceOf(UnsafeUrlError);
    });

    it('accepts a public address', async () => {
      await expect(check('https://8.8.8.8/hook')).resolves.toBeInstanceOf(URL);
      await expect(check('https://[2606:4700:4700::1111]/hook')).resolves.toBeInstanceOf(URL);
    });

    it('lets every private target through when WEBHOOK_ALLOW_PRIVATE is on (tests, development)', async () => {
      for (const url of ['http://127.0.0.1:9/hook', 'http://[2002:7f00:1::]/hook', 'http://192.0.2.1/hook', 'http://localhost/hook']) {
        await expect(assertSafeWebhookUrl(url, { allowPrivate: true, requireHttps: false })).resolves.toBeInstanceOf(URL);
      }
    });
  });

  describe('at delivery (the sender, for URLs saved before the rules tightened)', () => {
    const send = createSender({ timeoutMs: 1_000, allowPrivate: false });

    it.each(['[2002:7f00:1::]', '[::7f00:1]', '[::ffff:7f00:1]', '[::ffff:0:7f00:1]', '[::ffff:0:a9fe:a9fe]', '[64:ff9b::a00:1]', '[2001:db8::1]', '[100::1]', '192.0.2.1', '203.0.113.5', OWN_PUBLIC_V4])(
      'refuses %s without connecting',
      async (host) => {
        const result = await send(`http://${host}:9/hooks`, {}, '{}');
        expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/refused/) });
      },
    );
  });
});
