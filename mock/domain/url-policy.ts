// Subscription URL policies. Seed: "HTTPS, reachable from the public internet". Production
// enforces that (HTTPS only; no loopback, private or link-local address). Development, the
// default, also accepts plain HTTP to a loopback or private address, so a local receiver, or one
// in another container (`http://receiver:9000/hooks`, `http://host.docker.internal:9000/hooks`),
// can subscribe without TLS; plain HTTP to a public address stays refused.
// Under every policy a link-local, unspecified or cloud metadata address is refused, in any
// spelling: no receiver has one, and cloud machines keep their credentials behind them.
// The checks here are pure. A host name is resolved by the subscription service (create, update)
// and again before each delivery (DNS rebinding): under production every address must be public,
// under development a plain-HTTP name's every address private. The delivery's connection resolves
// it once more and refuses what the policy refuses (connectRefused): under development the one
// check of an HTTPS name, none of whose addresses may be link-local or metadata.
import { BlockList, isIP } from 'node:net';

/** development (the default) also accepts plain-HTTP loopback and private receivers; production does not. */
export type UrlPolicy = 'development' | 'production';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

type Subnet = readonly [network: string, prefix: number];

/**
 * The IPv6 prefixes that carry an IPv4 address in their last 32 bits: IPv4-compatible, SIIT
 * (RFC 6145) and NAT64 (RFC 6052, RFC 8215). A refusal covers these spellings too; IPv4-mapped
 * (::ffff:a.b.c.d) needs no rule, as BlockList checks it against the IPv4 rules itself.
 */
const IPV4_CARRIERS = ['::', '::ffff:0:', '64:ff9b::', '64:ff9b:1::'];

/** A list of the subnets; `carried` adds each IPv4 subnet as the IPv6 prefixes carry it. */
function subnets(ipv4: readonly Subnet[], ipv6: readonly Subnet[], carried = false): BlockList {
  const list = new BlockList();
  for (const [net, bits] of ipv4) {
    list.addSubnet(net, bits, 'ipv4');
    if (!carried) continue;
    for (const prefix of IPV4_CARRIERS) {
      // ::0.0.0.0/104 would take in ::1 (loopback); :: itself is listed where it is meant.
      if (prefix === '::' && net.startsWith('0.')) continue;
      list.addSubnet(`${prefix}${net}`, 96 + bits, 'ipv6');
    }
  }
  for (const [net, bits] of ipv6) list.addSubnet(net, bits, 'ipv6');
  return list;
}

/** Where a receiver on this machine or its networks is: loopback, private, shared (container and carrier networks), unique-local. */
const PRIVATE_V4: Subnet[] = [
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
];
const PRIVATE_V6: Subnet[] = [
  ['::1', 128],
  ['fc00::', 7],
];
/** Refused under every policy: addresses no receiver has, and where cloud machines keep their credentials. */
const NEVER_V4: Subnet[] = [
  // "This network": 0.0.0.0 reaches this machine; a local receiver is written 127.0.0.1 or localhost.
  ['0.0.0.0', 8],
  // Link-local: the metadata service of AWS, Google, Azure, Oracle, OpenStack (169.254.169.254), ECS task credentials (169.254.170.2).
  ['169.254.0.0', 16],
  // Alibaba Cloud's metadata service.
  ['100.100.100.200', 32],
  // Azure's WireServer.
  ['168.63.129.16', 32],
];
const NEVER_V6: Subnet[] = [
  // Unspecified.
  ['::', 128],
  // Link-local.
  ['fe80::', 10],
  // AWS's metadata service over IPv6.
  ['fd00:ec2::254', 128],
  // Google's metadata service over IPv6.
  ['fd20:ce::254', 128],
];
const never = subnets(NEVER_V4, NEVER_V6, true);
// Accepted only as written (or IPv4-mapped): an address a NAT64 gateway would translate is not a local receiver.
const privateNets = subnets(PRIVATE_V4, PRIVATE_V6);
/** Not public: the private ones, those refused under every policy, and the multicast and reserved ranges. */
const RESERVED_V4: Subnet[] = [
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const nonPublic = subnets([...PRIVATE_V4, ...NEVER_V4, ...RESERVED_V4], [...PRIVATE_V6, ...NEVER_V6, ['ff00::', 8]], true);

/** The literal address of a URL host or a resolved address, unwrapping [v6], a zone id and IPv4-mapped IPv6. */
function literalAddress(hostname: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host);
  if (mapped) return { address: mapped[1] as string, family: 'ipv4' };
  const kind = isIP(host);
  return kind === 0 ? undefined : { address: host, family: kind === 4 ? 'ipv4' : 'ipv6' };
}

export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const literal = literalAddress(name);
  return literal !== undefined && loopback.check(literal.address, literal.family);
}

export function isNonPublicAddress(address: string): boolean {
  const literal = literalAddress(address);
  return literal !== undefined && nonPublic.check(literal.address, literal.family);
}

/** A loopback or private address (not a link-local, unspecified, multicast or reserved one). */
export function isPrivateAddress(address: string): boolean {
  const literal = literalAddress(address);
  return literal !== undefined && privateNets.check(literal.address, literal.family) && !never.check(literal.address, literal.family);
}

/** A link-local, unspecified or cloud metadata address, in any spelling: refused under every policy. A name is not one. */
export function isNeverReceiver(address: string): boolean {
  const literal = literalAddress(address);
  return literal !== undefined && never.check(literal.address, literal.family);
}

/**
 * An address a delivery must not connect to, whatever the name resolved to when it was judged:
 * a non-public one under production, a link-local, unspecified or metadata one under every policy.
 */
export function connectRefused(address: string, policy: UrlPolicy): boolean {
  return policy === 'production' ? isNonPublicAddress(address) : isNeverReceiver(address);
}

const PLAIN_HTTP = 'must use HTTPS (plain HTTP is accepted only for loopback and private receivers)';
const NEVER = 'must not reach a link-local, unspecified or cloud metadata address';
export const NEVER_A_RECEIVER = `${NEVER} (refused under every URL policy)`;

/** Why a subscription URL is refused under the policy, or undefined when it is accepted. */
export function urlProblem(raw: string, policy: UrlPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use HTTPS';
  // The URL parser has already written the address one way (decimal, hex, octal and short IPv4 as dotted; IPv6 compressed).
  if (isNeverReceiver(url.hostname)) return NEVER_A_RECEIVER;
  if (url.protocol === 'https:') {
    if (policy === 'production' && (isLoopbackHost(url.hostname) || isNonPublicAddress(url.hostname))) {
      return 'must reach a public address (loopback, private and link-local addresses are refused)';
    }
    return undefined;
  }
  if (policy === 'production') return 'must use HTTPS';
  if (isLoopbackHost(url.hostname)) return undefined;
  // A literal is judged here; a name by what it resolves to (resolutionNeeded).
  const literal = literalAddress(url.hostname);
  if (literal === undefined) return undefined;
  return isPrivateAddress(literal.address) ? undefined : PLAIN_HTTP;
}

/** One address a host name resolves to (the shape of dns.promises.lookup with `all: true`). */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses; rejects when it has none. Injected (tests: a fake). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const RESOLVES_TO_NEVER = `${NEVER} (its host name resolves to one)`;
export const RESOLVES_TO_NON_PUBLIC = 'must reach a public address (its host name resolves to a loopback, private or link-local address)';
export const DOES_NOT_RESOLVE = 'must reach a public address (its host name does not resolve)';
export const RESOLVES_TO_PUBLIC = `${PLAIN_HTTP.slice(0, -1)}; its host name resolves to a public address)`;
export const PLAIN_HTTP_DOES_NOT_RESOLVE = `${PLAIN_HTTP.slice(0, -1)}; its host name does not resolve)`;

/**
 * A host name the policy must resolve before it can judge a URL, and what its addresses must all
 * be: public, or private.
 */
export interface Resolution {
  host: string;
  must: 'public' | 'private';
}

/**
 * Under production, a URL's host that is a name rather than an address literal: every address
 * must be public. Under development, a plain-HTTP host name other than localhost: every address
 * must be private. Undefined otherwise (a literal, localhost or an HTTPS name under development,
 * a URL that does not parse: urlProblem judges those, and the delivery's connection judges an
 * HTTPS name's addresses as it resolves them: webhooks/connect-lookup.ts).
 */
export function resolutionNeeded(raw: string, policy: UrlPolicy): Resolution | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (literalAddress(url.hostname) !== undefined) return undefined;
  if (policy === 'production') return { host: url.hostname, must: 'public' };
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
  return { host: url.hostname, must: 'private' };
}

/**
 * Why a host name's addresses do not do for the resolution asked, or undefined when they do (none
 * at all: it does not resolve).
 */
export function resolvedProblem(addresses: ResolvedAddress[] | undefined, must: Resolution['must']): string | undefined {
  if (addresses?.some(({ address }) => isNeverReceiver(address))) return RESOLVES_TO_NEVER;
  if (must === 'public') {
    if (addresses === undefined || addresses.length === 0) return DOES_NOT_RESOLVE;
    return allPublic(addresses) ? undefined : RESOLVES_TO_NON_PUBLIC;
  }
  if (addresses === undefined || addresses.length === 0) return PLAIN_HTTP_DOES_NOT_RESOLVE;
  return addresses.every(({ address }) => isPrivateAddress(address)) ? undefined : RESOLVES_TO_PUBLIC;
}

/**
 * Whether every resolved address is public: none loopback, private, link-local, unspecified,
 * multicast or reserved, and at least one. An address that cannot be read (zone ids aside)
 * counts as non-public: when in doubt, refuse.
 */
export function allPublic(addresses: ResolvedAddress[]): boolean {
  if (addresses.length === 0) return false;
  return addresses.every(({ address }) => isIP(address.replace(/%.*$/, '')) !== 0 && !isNonPublicAddress(address));
}
