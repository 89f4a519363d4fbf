/**
 * Where a webhook may go (docs/webhooks.md): live endpoints must resolve to public
 * addresses only, and the connection goes to the very address that was checked (see
 * webhook-sender.ts), so a DNS answer that changes between the check and the connection (DNS
 * rebinding) cannot steer a delivery into our own network. Private and loopback targets are let
 * through only with the development setting (`allowPrivate`).
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver (what a plain connection would use), every address, in its order. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

type Classification = { public: true } | { public: false; kind: string };

const readable: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  private: 'private',
  reserved: 'reserved',
  as112: 'AS112 anycast',
  amt: 'AMT anycast',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64 local-use',
  benchmarking: 'benchmarking',
  as112v6: 'AS112 anycast',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHIDv2',
  droneRemoteIdProtocolEntityTags: 'DRIP',
  segmentRouting: 'segment-routing',
  notGlobal: 'outside global unicast (2000::/3)',
  ipv4Compatible: 'IPv4-compatible (deprecated)',
  invalid: 'not an IP address',
};

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

function ipv4FromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyV4(address: ipaddr.IPv4): Classification {
  // ipaddr.js names every special-purpose IPv4 block (RFC 1918, 5735, 5737, 2544, 6598, 3171, …);
  // whatever is left is ordinary unicast.
  const range = address.range();
  return range === 'unicast' ? { public: true } : { public: false, kind: range };
}

function embedded(kind: string, inner: ipaddr.IPv4): Classification {
  const verdict = classifyV4(inner);
  return verdict.public ? verdict : { public: false, kind: `${kind} ${inner.toString()}, which is ${readable[verdict.kind] ?? verdict.kind}` };
}

function classifyV6(address: ipaddr.IPv6): Classification {
  const range: string = address.range();
  const parts = address.parts;
  switch (range) {
    case 'ipv4Mapped':
      // ::ffff:a.b.c.d reaches a.b.c.d on a dual-stack socket: judge the IPv4 address.
      return embedded('an IPv4-mapped address of', address.toIPv4Address());
    case 'rfc6052':
      // 64:ff9b::a.b.c.d goes through NAT64 to a.b.c.d; the local-use 64:ff9b:1::/48 is refused.
      return address.match(NAT64_WELL_KNOWN) ? embedded('a NAT64 address of', ipv4FromWords(parts[6]!, parts[7]!)) : { public: false, kind: range };
    case '6to4': {
      // 2002:AABB:CCDD::/48 tunnels to a.b.c.d = AA.BB.CC.DD.
      return embedded('a 6to4 address of', ipv4FromWords(parts[1]!, parts[2]!));
    }
    case 'teredo': {
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC: the server's IPv4, and the client's IPv4 with every bit inverted.
      const server = embedded('a Teredo address whose server is', ipv4FromWords(parts[2]!, parts[3]!));
      if (!server.public) return server;
      return embedded('a Teredo address whose client is', ipv4FromWords(~parts[6]! & 0xffff, ~parts[7]! & 0xffff));
    }
    case 'unicast':
      if (address.match(IPV4_COMPATIBLE)) return { public: false, kind: 'ipv4Compatible' };
      // Only 2000::/3 is allocated as global unicast; the rest of the space is not an ordinary target.
      return address.match(GLOBAL_UNICAST_V6) ? { public: true } : { public: false, kind: 'notGlobal' };
    default:
      return { public: false, kind: range };
  }
}

/**
 * IPv6 text with a trailing dotted IPv4 part rewritten as two hex groups, zone id dropped.
 * ipaddr.js (2.5.0) reads any `…:a.b.c.d` as IPv4-mapped: `::8.8.8.8` (IPv4-compatible,
 * `::808:808` on the wire) would come out as `::ffff:8.8.8.8`.
 */
function plainIPv6(address: string): string {
  const withoutZone = address.split('%')[0]!;
  const dotted = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(withoutZone);
  if (dotted === null) return withoutZone;
  const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
  return `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function classify(address: string): Classification {
  // node's isIP is strict (dotted decimal IPv4 only, no octal or hex forms); ipaddr.js classifies.
  const family = typeof address === 'string' ? isIP(address) : 0;
  try {
    if (family === 4) return classifyV4(ipaddr.IPv4.parse(address));
    if (family === 6) return classifyV6(ipaddr.IPv6.parse(plainIPv6(address)));
  } catch {
    // isIP and ipaddr.js disagree: refuse.
  }
  return { public: false, kind: 'invalid' };
}

/**
 * True only for ordinary public unicast addresses. Refuses private (10/8, 172.16/12, 192.168/16),
 * loopback, link-local (169.254/16, fe80::/10), CGNAT (100.64/10), multicast, unspecified,
 * broadcast, reserved (240/4, 192.0.0/24, …), IPv6 unique-local (fc00::/7) and site-local,
 * documentation and benchmark ranges (192.0.2/24, 198.51.100/24, 203.0.113/24, 198.18/15,
 * 2001:db8::/32, 3fff::/20, 2001:2::/48), anycast service blocks, IPv6 outside 2000::/3, and the
 * deprecated IPv4-compatible form (::a.b.c.d). Addresses that embed an IPv4 address are judged by
 * it: IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (both the
 * server and the client address). Anything that is not an IP address is refused.
 */
export function isPublicAddress(address: string): boolean {
  return classify(address).public;
}

/**
 * The ports a live receiver may listen on: HTTPS's own and its common alternative. A public
 * address on any port would let a merchant aim Akwe's requests at services that are not web
 * servers (`https://1.1.1.1:6379/` is a Redis port), so live destinations keep to these.
 */
export const liveDestinationPorts: readonly number[] = Object.freeze([443, 8443]);

/** The URL's port, or its scheme's default (the URL parser leaves `port` empty for 443 on https). */
function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Why the URL's port is refused when only `allowedPorts` are, or undefined when it is one of them. */
export function portRefusal(url: URL, allowedPorts: readonly number[]): string | undefined {
  const port = portOf(url);
  return allowedPorts.includes(port) ? undefined : `port ${port} is not allowed (only ${allowedPorts.join(' or ')})`;
}

export type TargetCheck = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

function describe(kind: string): string {
  return readable[kind] ?? kind;
}

/**
 * Resolves the URL's host (or takes an IP literal, `[v6]` literals included), refuses when ANY
 * resolved address is not public (unless allowPrivate), and returns the single address to connect
 * to: the first one the resolver gave. Refuses schemes other than http and https, and URLs with
 * credentials. Never throws: a resolver failure is `ok: false`.
 */
export async function checkTarget(url: URL, options: { allowPrivate: boolean; resolver?: Resolver; allowedPorts?: readonly number[] }): Promise<TargetCheck> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `scheme ${url.protocol} is not allowed (http or https only)` };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'credentials in the URL are not allowed' };
  const refusedPort = options.allowedPorts === undefined ? undefined : portRefusal(url, options.allowedPorts);
  if (refusedPort !== undefined) return { ok: false, reason: refusedPort };

  const host = url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return { ok: false, reason: 'the URL has no host' };

  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolver ?? systemResolver)(host);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      const detail = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
      return { ok: false, reason: `cannot resolve ${host}: ${detail}` };
    }
    if (!Array.isArray(addresses) || addresses.length === 0) return { ok: false, reason: `${host} resolves to no address` };
  }

  for (const { address } of addresses) {
    const family = typeof address === 'string' ? isIP(address) : 0;
    if (family === 0) return { ok: false, reason: `${host} resolves to something that is not an IP address` };
    if (options.allowPrivate) continue;
    const verdict = classify(address);
    if (!verdict.public) {
      return { ok: false, reason: literal !== 0 ? `${address} is ${describe(verdict.kind)}` : `${host} resolves to ${address}, which is ${describe(verdict.kind)}` };
    }
  }

  const chosen = addresses[0]!;
  return { ok: true, address: chosen.address, family: isIP(chosen.address) === 6 ? 6 : 4 };
}
