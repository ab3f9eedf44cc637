import { describe, expect, it } from '@jest/globals';
import { isLoopbackHost, isNonPublicAddress, urlProblem } from '../../mock/domain/url-policy';

describe('development URL policy', () => {
  it.each(['https://hooks.example.com/fos', 'https://10.0.0.5/hook', 'https://192.168.1.20:8443/hook', 'https://127.0.0.1/hook'])(
    'accepts the HTTPS URL %s, wherever it points',
    (url) => {
      expect(urlProblem(url, 'development')).toBeUndefined();
    },
  );

  it.each([
    'http://127.0.0.1:3000/hook',
    'http://127.5.6.7/hook',
    'http://[::1]:3000/hook',
    'http://localhost:3000/hook',
    'http://LOCALHOST/hook',
    'http://localhost./hook',
    'http://receiver.localhost/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://2130706433/hook',
  ])('accepts plain HTTP to the loopback receiver %s', (url) => {
    expect(urlProblem(url, 'development')).toBeUndefined();
  });

  it.each([
    'http://10.0.0.5/hook',
    'http://192.168.1.20/hook',
    'http://172.17.0.1:9000/hook',
    'http://10.88.0.3:9000/hook',
    'http://[::ffff:10.0.0.1]/hook',
    'http://[fd12:3456::1]/hook',
  ])('accepts plain HTTP to the private receiver %s (another container, the host of a container)', (url) => {
    expect(urlProblem(url, 'development')).toBeUndefined();
  });

  it.each(['http://93.184.216.34/hook', 'http://128.0.0.1/hook', 'http://[2606:4700::1111]/hook'])(
    'refuses plain HTTP to the public address %s',
    (url) => {
      expect(urlProblem(url, 'development')).toMatch(/HTTPS/);
    },
  );
});

describe('production URL policy', () => {
  it.each([
    'https://hooks.example.com/fos',
    'https://8.8.8.8/hook',
    'https://172.15.255.255/hook',
    'https://172.32.0.1/hook',
    'https://[2001:db8::1]/hook',
    'https://[::ffff:8.8.8.8]/hook',
  ])('accepts the public HTTPS URL %s', (url) => {
    expect(urlProblem(url, 'production')).toBeUndefined();
  });

  it.each(['http://hooks.example.com/fos', 'http://127.0.0.1:3000/hook', 'http://localhost/hook'])(
    'refuses the plain HTTP URL %s, even on loopback',
    (url) => {
      expect(urlProblem(url, 'production')).toBe('must use HTTPS');
    },
  );

  it.each([
    ['loopback 127.0.0.1', 'https://127.0.0.1/hook'],
    ['loopback 127.255.0.9', 'https://127.255.0.9/hook'],
    ['loopback ::1', 'https://[::1]/hook'],
    ['localhost', 'https://localhost/hook'],
    ['a .localhost name', 'https://api.localhost/hook'],
    ['10/8', 'https://10.1.2.3/hook'],
    ['172.16/12 low edge', 'https://172.16.0.1/hook'],
    ['172.16/12 high edge', 'https://172.31.255.254/hook'],
    ['192.168/16', 'https://192.168.0.10/hook'],
    ['fc00::/7 unique local', 'https://[fd12:3456::1]/hook'],
    ['fc00::/7 low half', 'https://[fc00::1]/hook'],
    ['IPv4-mapped 10/8', 'https://[::ffff:10.0.0.1]/hook'],
    ['IPv4-mapped 192.168/16', 'https://[::ffff:192.168.1.1]/hook'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['a decimal spelling of loopback', 'https://2130706433/hook'],
    ['a hex spelling of 10/8', 'https://0x0a.1.2.3/hook'],
  ])('refuses an HTTPS URL to %s', (_label, url) => {
    expect(urlProblem(url, 'production')).toMatch(/public address/);
  });
});

describe('URLs refused under every policy', () => {
  it.each(['development', 'production'] as const)('a URL with user and password is refused under the %s policy', (policy) => {
    expect(urlProblem('https://user:secret@hooks.example.com/fos', policy)).toBe('must not carry credentials');
  });

  it.each(['development', 'production'] as const)('a URL with only a user name is refused under the %s policy', (policy) => {
    expect(urlProblem('https://token@hooks.example.com/fos', policy)).toBe('must not carry credentials');
  });

  it('credentials are refused even on a loopback HTTP URL in development', () => {
    expect(urlProblem('http://admin:admin@127.0.0.1:3000/hook', 'development')).toBe('must not carry credentials');
  });

  it.each([
    'ftp://hooks.example.com/fos',
    'ws://127.0.0.1/hook',
    'wss://hooks.example.com/fos',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'mailto:ops@example.com',
    'data:text/plain,hi',
  ])('the non-HTTP URL %s is refused in development and production', (url) => {
    expect(urlProblem(url, 'development')).toBe('must use HTTPS');
    expect(urlProblem(url, 'production')).toBe('must use HTTPS');
  });

  it.each(['', 'not a url', 'hooks.example.com/fos', '//hooks.example.com/fos', 'https://', 'http://[::1/hook', 'https://exa mple.com/'])(
    'the malformed URL %p is refused',
    (url) => {
      expect(urlProblem(url, 'development')).toBe('is not an absolute URL');
      expect(urlProblem(url, 'production')).toBe('is not an absolute URL');
    },
  );
});

describe('address classification', () => {
  it('recognises loopback names and literals, and nothing else', () => {
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
    expect(isLoopbackHost('example.com')).toBe(false);
    expect(isLoopbackHost('notlocalhost')).toBe(false);
  });

  it('treats a host name as public: names are not resolved', () => {
    expect(isNonPublicAddress('hooks.example.com')).toBe(false);
  });

  it('classifies private and public literals', () => {
    expect(isNonPublicAddress('172.20.1.1')).toBe(true);
    expect(isNonPublicAddress('[fe80::abcd]')).toBe(true);
    expect(isNonPublicAddress('::ffff:192.168.0.1')).toBe(true);
    expect(isNonPublicAddress('100.64.0.1')).toBe(true);
    expect(isNonPublicAddress('1.1.1.1')).toBe(false);
    expect(isNonPublicAddress('[2606:4700::1111]')).toBe(false);
  });
});
