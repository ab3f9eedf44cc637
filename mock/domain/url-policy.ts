// Subscription URL policies. Seed: "HTTPS, reachable from the public internet". Production
// enforces that (HTTPS only; no loopback, private or link-local address). Development, the
// default, also accepts plain HTTP to a loopback or private address, so a local receiver, or one
// in another container (`http://receiver:9000/hooks`, `http://host.docker.internal:9000/hooks`),
// can subscribe without TLS; plain HTTP to a public address stays refused.
// The checks here are pure. A host name is resolved by the subscription service (create, update)
// and again before each delivery (DNS rebinding): under production every address must be public,
// under development a plain-HTTP name's every address private; the addresses are judged here.
import { BlockList, isIP } from 'node:net';

/** development (the default) also accepts plain-HTTP loopback and private receivers; production does not. */
export type UrlPolicy = 'development' | 'production';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

type Subnet = readonly [network: string, prefix: number];

function subnets(ipv4: readonly Subnet[], ipv6: readonly Subnet[]): BlockList {
  const list = new BlockList();
  for (const [net, bits] of ipv4) list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of ipv6) list.addSubnet(net, bits, 'ipv6');
  return list;
}

/** Addresses a receiver on this machine or its private networks has: loopback, private, shared (container networks), link-local. */
const PRIVATE_V4: Subnet[] = [
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
];
const PRIVATE_V6: Subnet[] = [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
];
const privateNets = subnets(PRIVATE_V4, PRIVATE_V6);
/** Not public: the private ones, and the unspecified, multicast and reserved ranges. */
const nonPublic = subnets([...PRIVATE_V4, ['0.0.0.0', 8], ['224.0.0.0', 4], ['240.0.0.0', 4]], [...PRIVATE_V6, ['::', 128], ['ff00::', 8]]);

/** The literal address of a URL host, unwrapping [v6] and IPv4-mapped IPv6. */
function literalAddress(hostname: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
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

/** A loopback, private or link-local address (not the unspecified, multicast or reserved ones). */
export function isPrivateAddress(address: string): boolean {
  const literal = literalAddress(address.replace(/%.*$/, ''));
  return literal !== undefined && privateNets.check(literal.address, literal.family);
}

const PLAIN_HTTP = 'must use HTTPS (plain HTTP is accepted only for loopback and private receivers)';

/** Why a subscription URL is refused under the policy, or undefined when it is accepted. */
export function urlProblem(raw: string, policy: UrlPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.protocol === 'https:') {
    if (policy === 'production' && (isLoopbackHost(url.hostname) || isNonPublicAddress(url.hostname))) {
      return 'must reach a public address (loopback, private and link-local addresses are refused)';
    }
    return undefined;
  }
  if (url.protocol === 'http:') {
    if (policy === 'production') return 'must use HTTPS';
    if (isLoopbackHost(url.hostname)) return undefined;
    // A literal is judged here; a name by what it resolves to (resolutionNeeded).
    const literal = literalAddress(url.hostname);
    if (literal === undefined) return undefined;
    return isPrivateAddress(literal.address) ? undefined : PLAIN_HTTP;
  }
  return 'must use HTTPS';
}

/** One address a host name resolves to (the shape of dns.promises.lookup with `all: true`). */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses; rejects when it has none. Injected (tests: a fake). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const RESOLVES_TO_NON_PUBLIC = 'must reach a public address (its host name resolves to a loopback, private or link-local address)';
export const DOES_NOT_RESOLVE = 'must reach a public address (its host name does not resolve)';
export const RESOLVES_TO_PUBLIC = `${PLAIN_HTTP.slice(0, -1)}; its host name resolves to a public address)`;
export const PLAIN_HTTP_DOES_NOT_RESOLVE = `${PLAIN_HTTP.slice(0, -1)}; its host name does not resolve)`;

/** A host name the policy must resolve before it can judge a URL, and what its addresses must all be. */
export interface Resolution {
  host: string;
  must: 'public' | 'private';
}

/**
 * Under production, a URL's host that is a name rather than an address literal: every address
 * must be public. Under development, a plain-HTTP URL's host that is a name other than localhost:
 * every address must be private. Undefined otherwise (a literal, HTTPS under development, a URL
 * that does not parse: urlProblem judges those).
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

/** Why a host name's addresses do not do for the resolution asked, or undefined when they do (none at all: it does not resolve). */
export function resolvedProblem(addresses: ResolvedAddress[] | undefined, must: Resolution['must']): string | undefined {
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
  return addresses.every(({ address }) => {
    const plain = address.replace(/%.*$/, '');
    return isIP(plain) !== 0 && !isNonPublicAddress(plain);
  });
}
