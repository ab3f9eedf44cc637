// The parsers of the configuration's text forms (a variable's or a flag's value): each answers the
// value, or undefined when the text is not of the accepted form. mock/config.ts names them in its
// table of settings.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseDuration } from './domain/duration';

/** Per-customer rate limit: `requests` per `perMs` of mock time. */
export interface RateLimit {
  /** Requests a customer may make per period (also the largest burst). */
  requests: number;
  /** The period, in ms of mock time. */
  perMs: number;
}

/** The largest delay Node's timers keep (a longer one fires at once). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
const ON = ['on', 'true', 'yes', '1'];
const OFF = ['off', 'false', 'no', '0'];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// An instant with a date, a time and a zone, as `Date.toISOString()` writes it or with an offset.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** A parser answers the value, or undefined when the text is not of the accepted form. */
export type Parse<T> = (raw: string) => T | undefined;

export const whole =
  (min: number, max: number = Number.MAX_SAFE_INTEGER): Parse<number> =>
  (raw) => {
    if (!/^\d+$/.test(raw.trim())) return undefined;
    const value = Number(raw.trim());
    return value >= min && value <= max ? value : undefined;
  };

export const onOff: Parse<boolean> = (raw) =>
  ON.includes(raw.trim().toLowerCase()) ? true : OFF.includes(raw.trim().toLowerCase()) ? false : undefined;
export const offOr =
  <T>(parse: Parse<T>): Parse<T | null> =>
  (raw) =>
    raw.trim().toLowerCase() === 'off' ? null : parse(raw);
export const oneOf =
  <T extends string>(values: readonly T[]): Parse<T> =>
  (raw) =>
    values.find((v) => v === raw.trim().toLowerCase());
export const nonEmpty: Parse<string> = (raw) => (raw.trim() === '' ? undefined : raw);
export const hostName: Parse<string> = (raw) => (/^[A-Za-z0-9.:_[\]-]+$/.test(raw.trim()) ? raw.trim() : undefined);
/** A comma-separated list of host names or addresses (no scheme, path or port), or `*` for any; empty for none. */
export const hostList: Parse<string[]> = (raw) => {
  const hosts = raw
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
  return hosts.every((host) => host === '*' || /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[?[0-9a-f:.]+\]?)$/.test(host)) ? hosts : undefined;
};
export const instant: Parse<string> = (raw) =>
  ISO_INSTANT.test(raw.trim()) && !Number.isNaN(Date.parse(raw.trim())) ? new Date(Date.parse(raw.trim())).toISOString() : undefined;
export const readableFile: Parse<string> = (raw) => {
  if (raw.trim() === '') return undefined;
  try {
    accessSync(raw, constants.R_OK);
    return statSync(raw).isFile() ? raw : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Where the state file goes: its folder exists and this process may write there (the file is
 * written beside itself and renamed over), and the path, if something is there, is a file it may
 * read and write. Answered as an absolute path, so a later change of folder does not move it.
 */
export const stateFilePath: Parse<string> = (raw) => {
  if (raw.trim() === '') return undefined;
  const path = resolve(raw);
  try {
    if (!statSync(dirname(path)).isDirectory()) return undefined;
    accessSync(dirname(path), constants.W_OK);
  } catch {
    return undefined;
  }
  try {
    if (!statSync(path).isFile()) return undefined;
  } catch {
    // Nothing there yet: the first write makes it.
    return path;
  }
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
    return path;
  } catch {
    return undefined;
  }
};

/** A Redis URL ioredis reads: redis:// or rediss://, a host, an optional port and database number. */
export function redisUrl(raw: string): string | undefined {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return undefined;
  if (!url.hostname || (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname))) return undefined;
  return text;
}

/** "100/1s", "600/1m", "5/250ms", "100/s" (a bare unit is one of it); "off" is handled by the caller. */
export function rateLimitOf(value: string): RateLimit | undefined {
  const match = /^(\d+)\/(\w+)$/.exec(value.trim());
  if (!match) return undefined;
  const requests = Number(match[1]);
  let perMs: number;
  try {
    perMs = parseDuration(/^(d|h|m|s|ms)$/.test(match[2]!) ? `1${match[2]}` : match[2]);
  } catch {
    return undefined;
  }
  return Number.isSafeInteger(requests) && requests >= 1 && perMs >= 1 ? { requests, perMs } : undefined;
}
