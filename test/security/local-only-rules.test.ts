// Which hosts the control API answers (mock/http/local-only.ts): loopback names and addresses,
// the address the mock listens on, and ALLOWED_HOSTS; a Host or Origin is read without its port.
import { describe, expect, it } from '@jest/globals';
import { hostAllowed, hostOf } from '../../mock/http/local-only';

const onLoopback = { listenHost: '127.0.0.1', allowedHosts: [] };

describe('reading a host', () => {
  it('drops the port, the IPv6 brackets, a trailing dot and the case', () => {
    expect(hostOf('127.0.0.1:4010')).toBe('127.0.0.1');
    expect(hostOf('[::1]:4010')).toBe('::1');
    expect(hostOf('LocalHost.')).toBe('localhost');
    expect(hostOf('mock:4010')).toBe('mock');
  });
});

describe('the hosts the control API answers', () => {
  it('loopback names and addresses, whatever the port', () => {
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '127.1.2.3', '::1'])
      expect([host, hostAllowed(host, onLoopback)]).toEqual([host, true]);
  });

  it('not another name, a private address, or a name that only contains a loopback one', () => {
    for (const host of ['attacker.example', '10.0.0.5', '192.168.1.10', 'localhost.attacker.example', '127.0.0.1.nip.io', ''])
      expect([host, hostAllowed(host, onLoopback)]).toEqual([host, false]);
  });

  it('the address the mock listens on, but not a wildcard address (which names no host)', () => {
    expect(hostAllowed('10.0.0.5', { listenHost: '10.0.0.5', allowedHosts: [] })).toBe(true);
    expect(hostAllowed('0.0.0.0', { listenHost: '0.0.0.0', allowedHosts: [] })).toBe(false);
    expect(hostAllowed('mock', { listenHost: '0.0.0.0', allowedHosts: [] })).toBe(false);
  });

  it('a name of ALLOWED_HOSTS, and any host when it holds *', () => {
    expect(hostAllowed('mock', { listenHost: '0.0.0.0', allowedHosts: ['mock', 'qa.internal'] })).toBe(true);
    expect(hostAllowed('other', { listenHost: '0.0.0.0', allowedHosts: ['mock'] })).toBe(false);
    expect(hostAllowed('attacker.example', { listenHost: '127.0.0.1', allowedHosts: ['*'] })).toBe(true);
  });
});
