// Link-local, unspecified and cloud metadata addresses are refused under every URL policy, in
// every spelling the URL parser accepts or an IPv6 address can carry an IPv4 one in; loopback and
// private receivers stay accepted under development; a host name is judged by its addresses.
import { describe, expect, it } from '@jest/globals';
import { isNeverReceiver, resolutionNeeded, resolvedProblem, urlProblem, type ResolvedAddress } from '../../mock/domain/url-policy';

const NEVER_A_RECEIVER = 'must not reach a link-local, unspecified or cloud metadata address (refused under every URL policy)';
const RESOLVES_TO_NEVER = 'must not reach a link-local, unspecified or cloud metadata address (its host name resolves to one)';

const policies = ['development', 'production'] as const;

/** host[:port] as written after the scheme, and what it is. */
const NEVER_HOSTS: Array<[string, string]> = [
  ['169.254.169.254', 'the metadata address (AWS, Google, Azure, Oracle, OpenStack)'],
  ['2852039166', 'the metadata address in decimal'],
  ['0xa9fea9fe', 'the metadata address in hex'],
  ['0251.0376.0251.0376', 'the metadata address in octal'],
  ['169.254.43518', 'the metadata address shortened to three parts'],
  ['169.16689662', 'the metadata address shortened to two parts'],
  ['169。254。169。254', 'the metadata address with ideographic full stops'],
  ['169.254.169.254:80', 'the metadata address with a port'],
  ['[::ffff:169.254.169.254]', 'the metadata address IPv4-mapped'],
  ['[::ffff:a9fe:a9fe]', 'the metadata address IPv4-mapped, in hex'],
  ['[::169.254.169.254]', 'the metadata address IPv4-compatible'],
  ['[::ffff:0:a9fe:a9fe]', 'the metadata address IPv4-translated (SIIT)'],
  ['[64:ff9b::a9fe:a9fe]', 'the metadata address through NAT64'],
  ['[64:ff9b:1::a9fe:a9fe]', 'the metadata address through local-use NAT64'],
  ['169.254.170.2', 'ECS task credentials'],
  ['169.254.0.1', 'the low end of 169.254/16'],
  ['169.254.255.254', 'the high end of 169.254/16'],
  ['[fe80::1]', 'an IPv6 link-local address'],
  ['[FE80::A9FE:A9FE]', 'the OpenStack IPv6 metadata address, in capitals'],
  ['[febf:ffff::1]', 'the high end of fe80::/10'],
  ['[fd00:ec2::254]', 'the AWS IPv6 metadata address'],
  ['[fd20:ce::254]', 'the Google IPv6 metadata address'],
  ['100.100.100.200', 'the Alibaba Cloud metadata address'],
  ['168.63.129.16', 'the Azure WireServer'],
  ['0.0.0.0', 'the unspecified address'],
  ['0', 'the unspecified address in decimal'],
  ['0.1.2.3', '0.0.0.0/8'],
  ['[::]', 'the IPv6 unspecified address'],
  ['[::ffff:0.0.0.0]', 'the unspecified address IPv4-mapped'],
];

describe('refused under every policy, over HTTPS and plain HTTP', () => {
  it.each(NEVER_HOSTS)('%s (%s)', (host) => {
    for (const policy of policies) {
      for (const scheme of ['http', 'https']) {
        expect([policy, urlProblem(`${scheme}://${host}/latest/meta-data/`, policy)]).toEqual([policy, NEVER_A_RECEIVER]);
      }
    }
  });
});

describe('what stays accepted next to them', () => {
  it.each([
    'http://127.0.0.1:3000/hook',
    'http://[::1]:3000/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://localhost:3000/hook',
    'http://10.0.0.5/hook',
    'http://172.17.0.1:9000/hook',
    'http://192.168.1.20/hook',
    'http://100.64.0.7/hook',
    'http://100.100.100.199/hook',
    'http://[fd12:3456::1]/hook',
    'http://[fd00:ec2::253]/hook',
    'https://10.0.0.5/hook',
    'https://169.253.255.255/hook',
    'https://169.255.0.1/hook',
    'https://[fec0::1]/hook',
  ])('development accepts %s', (url) => {
    expect(urlProblem(url, 'development')).toBeUndefined();
  });

  it('an address a NAT64 gateway would translate to a private one is not a local receiver: plain HTTP is refused', () => {
    expect(urlProblem('http://[64:ff9b::a00:1]/hook', 'development')).toMatch(/plain HTTP is accepted only for loopback and private/);
  });

  it('production refuses the other spellings of a private address and accepts those of a public one', () => {
    expect(urlProblem('https://[64:ff9b::a00:1]/hook', 'production')).toMatch(/public address/);
    expect(urlProblem('https://[::ffff:0:c0a8:1]/hook', 'production')).toMatch(/public address/);
    expect(urlProblem('https://[64:ff9b::808:808]/hook', 'production')).toBeUndefined();
  });

  it('loopback is not taken for an IPv4-compatible spelling of 0.0.0.0/8', () => {
    expect(isNeverReceiver('::1')).toBe(false);
    expect(isNeverReceiver('::')).toBe(true);
    expect(isNeverReceiver('::ffff:127.0.0.1')).toBe(false);
  });

  it('a host name is not an address: it is judged by what it resolves to', () => {
    expect(isNeverReceiver('metadata.google.internal')).toBe(false);
    expect(urlProblem('https://metadata.google.internal/computeMetadata/v1/', 'development')).toBeUndefined();
  });
});

describe("a host name's addresses", () => {
  const at = (...addresses: string[]): ResolvedAddress[] =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it.each([
    ['169.254.169.254'],
    ['fe80::1%eth0'],
    ['fd00:ec2::254'],
    ['100.100.100.200'],
    ['::ffff:169.254.169.254'],
    ['64:ff9b::a9fe:a9fe'],
    ['0.0.0.0'],
  ])('one link-local, unspecified or metadata address (%s) refuses it, whatever the name must otherwise be', (address) => {
    for (const must of ['public', 'private'] as const) {
      expect([must, resolvedProblem(at('10.0.0.1', '93.184.216.34', address), must)]).toEqual([must, RESOLVES_TO_NEVER]);
    }
  });

  it('an HTTPS name under development is not resolved by the policy (its connection judges each address)', () => {
    expect(resolutionNeeded('https://metadata.google.internal/', 'development')).toBeUndefined();
  });

  it('a plain-HTTP name under development still accepts loopback and private addresses', () => {
    expect(resolvedProblem(at('10.89.0.7', '127.0.0.1', 'fd00::7'), 'private')).toBeUndefined();
  });
});
