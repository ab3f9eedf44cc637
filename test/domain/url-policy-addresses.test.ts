// Subscription URL policy details: the development policy explains why plain HTTP was refused,
// which host names are resolved and what their addresses must be (production: all public; plain
// HTTP under development: all private; HTTPS under development: none link-local or metadata; never
// a URL that does not parse), and resolved addresses
// are all public only when there is at least one, each readable, zone ids aside.
import { describe, expect, it } from '@jest/globals';
import { allPublic, resolutionNeeded, resolvedProblem, urlProblem } from '../../mock/domain/url-policy';

describe('plain HTTP', () => {
  it('to a public address, development says HTTPS is needed except for loopback and private receivers', () => {
    expect(urlProblem('http://93.184.216.34/hook', 'development')).toBe(
      'must use HTTPS (plain HTTP is accepted only for loopback and private receivers)',
    );
    expect(urlProblem('http://example.com/hook', 'production')).toBe('must use HTTPS');
    expect(urlProblem('http://127.0.0.1:8080/hook', 'production')).toBe('must use HTTPS');
    expect(urlProblem('http://127.0.0.1:8080/hook', 'development')).toBeUndefined();
    expect(urlProblem('http://10.88.0.1:9000/hooks', 'production')).toBe('must use HTTPS');
  });

  it('to a name, development leaves it to what the name resolves to', () => {
    expect(urlProblem('http://receiver:9000/hooks', 'development')).toBeUndefined();
    expect(resolutionNeeded('http://receiver:9000/hooks', 'development')).toEqual({ host: 'receiver', must: 'private' });
  });
});

describe('which host is resolved, and what its addresses must be', () => {
  it('a name under production (all public); under development, not localhost (plain HTTP: all private; HTTPS: a receiver)', () => {
    expect(resolutionNeeded('https://hooks.example.com/x', 'production')).toEqual({ host: 'hooks.example.com', must: 'public' });
    expect(resolutionNeeded('http://host.docker.internal:9000/hooks', 'development')).toEqual({
      host: 'host.docker.internal',
      must: 'private',
    });
    expect(resolutionNeeded('https://hooks.example.com/x', 'development')).toBeUndefined();
  });

  it('nothing for an address literal, localhost under development, or a URL that does not parse', () => {
    expect(resolutionNeeded('https://93.184.216.34/x', 'production')).toBeUndefined();
    expect(resolutionNeeded('https://[2606:4700::1111]/x', 'production')).toBeUndefined();
    expect(resolutionNeeded('http://10.0.0.5/x', 'development')).toBeUndefined();
    expect(resolutionNeeded('https://10.0.0.5/x', 'development')).toBeUndefined();
    expect(resolutionNeeded('http://localhost:9000/x', 'development')).toBeUndefined();
    expect(resolutionNeeded('https://api.localhost/x', 'development')).toBeUndefined();
    expect(resolutionNeeded('not a url', 'production')).toBeUndefined();
  });

  const at = (...addresses: string[]) => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('a plain-HTTP name is accepted when every address is loopback or private', () => {
    expect(resolvedProblem(at('10.89.0.7'), 'private')).toBeUndefined();
    expect(resolvedProblem(at('172.17.0.1', 'fd00::7'), 'private')).toBeUndefined();
    expect(resolvedProblem(at('127.0.0.1', '::1'), 'private')).toBeUndefined();
  });

  it('and refused when one address is public, unspecified or multicast, or the name does not resolve, saying which', () => {
    expect(resolvedProblem(at('10.0.0.1', '93.184.216.34'), 'private')).toBe(
      'must use HTTPS (plain HTTP is accepted only for loopback and private receivers; its host name resolves to a public address)',
    );
    expect(resolvedProblem(at('224.0.0.1'), 'private')).toMatch(/resolves to a public address/);
    expect(resolvedProblem(undefined, 'private')).toBe(
      'must use HTTPS (plain HTTP is accepted only for loopback and private receivers; its host name does not resolve)',
    );
    expect(resolvedProblem([], 'public')).toBe('must reach a public address (its host name does not resolve)');
    expect(resolvedProblem(at('10.0.0.1'), 'public')).toMatch(/resolves to a loopback, private or link-local address/);
    expect(resolvedProblem(at('93.184.216.34'), 'public')).toBeUndefined();
  });
});

describe('resolved addresses', () => {
  it('none at all is not public', () => {
    expect(allPublic([])).toBe(false);
  });

  it('a public IPv6 address with a zone id is public, a link-local one with a zone id is not', () => {
    expect(allPublic([{ address: '2606:4700::1111%eth0', family: 6 }])).toBe(true);
    expect(allPublic([{ address: 'fe80::1%eth0', family: 6 }])).toBe(false);
  });

  it('an address that cannot be read is not public', () => {
    expect(allPublic([{ address: 'not-an-address', family: 4 }])).toBe(false);
    expect(
      allPublic([
        { address: '93.184.216.34', family: 4 },
        { address: '', family: 4 },
      ]),
    ).toBe(false);
  });

  it('public only when every address is', () => {
    expect(
      allPublic([
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ]),
    ).toBe(true);
    expect(
      allPublic([
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ]),
    ).toBe(false);
  });
});
