// The control API and the inspector have no token: they answer only the machine they are meant
// for. A request under /_mock must name, in its Host header, a loopback name or address, the
// address the mock listens on, or a host of ALLOWED_HOSTS (`*`: any), else 403 HOST_NOT_ALLOWED:
// a page that rebinds its own name to 127.0.0.1 (DNS rebinding) cannot read the state. A request
// that changes something and comes from another site (its Origin names a host not allowed, or,
// without an Origin, Sec-Fetch-Site says cross-site) is 403 CROSS_SITE_REQUEST: a page the
// developer visits cannot post a form to /_mock/reset. Local dev servers defend the same way
// (Vite's and webpack-dev-server's allowedHosts).
import { isIP } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../errors/catalogue';
import { isControlPath } from './control-path';

export interface LocalOnlyRules {
  /** The address the mock listens on (config.host); a wildcard address names no host. */
  listenHost: string;
  /** Hosts allowed besides loopback ones (config.allowedHosts); `*` allows any. */
  allowedHosts: readonly string[];
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The host of a Host header or an Origin's authority: lower case, without port or IPv6 brackets. */
export function hostOf(authority: string): string {
  const text = authority.trim().toLowerCase();
  if (text.startsWith('[')) return text.slice(1, text.indexOf(']') === -1 ? undefined : text.indexOf(']'));
  const colon = text.indexOf(':');
  return (colon === -1 ? text : text.slice(0, colon)).replace(/\.$/, '');
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

export function hostAllowed(host: string, rules: LocalOnlyRules): boolean {
  if (host === '') return false;
  if (rules.allowedHosts.includes('*') || isLoopback(host)) return true;
  const listening = hostOf(rules.listenHost);
  if (listening !== '0.0.0.0' && listening !== '::' && host === listening) return true;
  return rules.allowedHosts.some((allowed) => hostOf(allowed) === host);
}

/** The Origin's host, or undefined when the header is absent; `null` (an opaque origin) is a host no rule allows. */
function originHost(origin: string): string {
  try {
    return hostOf(new URL(origin).host);
  } catch {
    return '';
  }
}

export function localOnly(rules: LocalOnlyRules) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!isControlPath(req.path)) return next();
    const host = hostOf(req.headers.host ?? '');
    if (!hostAllowed(host, rules)) {
      return next(new ServiceError('HOST_NOT_ALLOWED', { host, setting: 'ALLOWED_HOSTS' }, notAllowed(host)));
    }
    if (READS.has(req.method)) return next();
    const origin = req.headers.origin;
    const crossSite = origin === undefined ? req.headers['sec-fetch-site'] === 'cross-site' : !hostAllowed(originHost(origin), rules);
    if (crossSite) return next(new ServiceError('CROSS_SITE_REQUEST', { origin: origin ?? null, setting: 'ALLOWED_HOSTS' }));
    next();
  };
}

function notAllowed(host: string): string {
  const named = host === '' ? 'no Host was given' : `${host} is neither`;
  return `The control API answers only loopback hosts and those in ALLOWED_HOSTS; ${named}.`;
}
