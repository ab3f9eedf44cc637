// Subscription URL policy details: the development policy explains why plain HTTP was refused,
// only production resolves host names (never a URL that does not parse), and resolved addresses
// are all public only when there is at least one, each readable, zone ids aside.
import { describe, expect, it } from '@jest/globals';
import { allPublic, hostToResolve, urlProblem } from '../../mock/domain/url-policy';

describe('plain HTTP', () => {
  it('to a non-loopback host, development says HTTPS is needed except for loopback receivers', () => {
    expect(urlProblem('http://example.com/hook', 'development')).toBe(
      'must use HTTPS (plain HTTP is accepted only for loopback receivers)',
    );
    expect(urlProblem('http://example.com/hook', 'production')).toBe('must use HTTPS');
    expect(urlProblem('http://127.0.0.1:8080/hook', 'production')).toBe('must use HTTPS');
    expect(urlProblem('http://127.0.0.1:8080/hook', 'development')).toBeUndefined();
  });
});

describe('which host is resolved', () => {
  it('a host name under production, nothing for an address literal, development or a URL that does not parse', () => {
    expect(hostToResolve('https://hooks.example.com/x', 'production')).toBe('hooks.example.com');
    expect(hostToResolve('https://93.184.216.34/x', 'production')).toBeUndefined();
    expect(hostToResolve('https://[2606:4700::1111]/x', 'production')).toBeUndefined();
    expect(hostToResolve('https://hooks.example.com/x', 'development')).toBeUndefined();
    expect(hostToResolve('not a url', 'production')).toBeUndefined();
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
