// The mock's configuration: one typed object, read once (by main) from the environment and
// command-line flags. Nothing else in the code reads process.env.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { projectPath } from '../spec/project-root';
import { parseDuration } from './domain/duration';
import type { UrlPolicy } from './domain/url-policy';

export interface RateLimit {
  /** Requests a customer may make per period (also the largest burst). */
  requests: number;
  /** The period, in ms of mock time. */
  perMs: number;
}

export interface Config {
  /** TCP port (env PORT, default 4010; 0 picks a free one). */
  port: number;
  /** Interface to listen on (env HOST, default 127.0.0.1). */
  host: string;
  /** How long a quote can be used, in ms of mock time (env QUOTE_LIFETIME_MS, default 30 s). */
  quoteLifetimeMs: number;
  /** Validate every response against the document before sending it (env STRICT_RESPONSES, default on). */
  strictResponses: boolean;
  /** Largest accepted request body in bytes (env BODY_LIMIT_BYTES, default 1 MiB). */
  bodyLimitBytes: number;
  /**
   * Largest accepted request head (request line and headers) in bytes, at least 1024; larger is 431
   * (env MAX_HEADER_BYTES, default 16 KiB).
   */
  maxHeaderBytes: number;
  /**
   * Real time allowed to receive a whole request, head and body; slower is 408 and the connection
   * closed (env REQUEST_TIMEOUT_MS, default 30 s; 0 for none).
   */
  requestTimeoutMs: number;
  /**
   * Real time allowed to receive a request's head, never more than requestTimeoutMs; slower is 408
   * (env HEADERS_TIMEOUT_MS, default 10 s; 0: only requestTimeoutMs bounds it).
   */
  headersTimeoutMs: number;
  /**
   * Per-customer rate limit, `requests` per `perMs` of mock time (429 RATE_LIMITED beyond; the
   * token call per client id); null for none (env RATE_LIMIT, "100/1s" or "off"; default off, an
   * assumption of ours).
   */
  rateLimit: RateLimit | null;
  /**
   * Operations settle this long after creation, in ms of mock time; null leaves them to the control
   * API (env AUTO_SETTLE_MS, "off" for null; default 5 s).
   */
  autoSettleMs: number | null;
  /** How long an idempotency key is remembered, in ms of mock time (24 h, as the XIdempotencyKey parameter says). */
  idempotencyTtlMs: number;
  /** Access-token lifetime in seconds (seed: 82800, 23 h). */
  tokenLifetimeSeconds: number;
  /** Signs tokens and cursors (env FOS_MOCK_SECRET); random per process unless set, so replicas must share it. */
  secret: string;
  /** Serve the /_mock control API (env CONTROL_API, default on). */
  controlApi: boolean;
  /** Demo data loaded at start and on reset (env FIXTURES). */
  fixturesPath: string;
  /** Subscription URL policy: development also accepts plain-HTTP loopback URLs (env URL_POLICY). */
  urlPolicy: UrlPolicy;
  /** Webhook delivery time-out in ms (env WEBHOOK_TIMEOUT_MS, default 10 s). */
  webhookTimeoutMs: number;
  /**
   * Sign webhook deliveries per the Standard Webhooks scheme and show each subscription's secret
   * (env WEBHOOK_SIGNING, default off: the seed documents no signing).
   */
  webhookSigning: boolean;
  /**
   * Delays before each retry of a failed delivery, in ms of mock time (ours: 5 s, 30 s, 2 min,
   * 10 min, 1 h; the seed leaves the schedule open).
   */
  retryScheduleMs: number[];
  /** Mock clock start (ISO date-time); the real time when absent (env CLOCK_START). */
  clockStart?: string;
  /** pino log level (env LOG_LEVEL, default info; "silent" for none). */
  logLevel: string;
}

export function defaultConfig(): Config {
  return {
    port: 4010,
    host: '127.0.0.1',
    quoteLifetimeMs: 30_000,
    strictResponses: true,
    bodyLimitBytes: 1024 * 1024,
    maxHeaderBytes: 16 * 1024,
    requestTimeoutMs: 30_000,
    headersTimeoutMs: 10_000,
    rateLimit: null,
    autoSettleMs: 5_000,
    idempotencyTtlMs: 24 * 60 * 60 * 1000,
    tokenLifetimeSeconds: 82_800,
    secret: randomBytes(32).toString('hex'),
    controlApi: true,
    fixturesPath: projectPath('fixtures', 'demo.json'),
    urlPolicy: 'development',
    webhookTimeoutMs: 10_000,
    webhookSigning: false,
    retryScheduleMs: [5_000, 30_000, 120_000, 600_000, 3_600_000],
    logLevel: 'info',
  };
}

/** Why a setting was refused: names the variable or flag, the value and the accepted form. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    readonly value: string,
    readonly accepted: string,
  ) {
    super(`${setting} must be ${accepted}, got ${JSON.stringify(value)}`);
    this.name = 'ConfigError';
  }
}

/** The largest delay Node's timers keep (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;
const ON = ['on', 'true', 'yes', '1'];
const OFF = ['off', 'false', 'no', '0'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// An instant with a date, a time and a zone, as `Date.toISOString()` writes it or with an offset.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** A parser answers the value, or undefined when the text is not of the accepted form. */
type Parse<T> = (raw: string) => T | undefined;

const whole =
  (min: number, max: number = Number.MAX_SAFE_INTEGER): Parse<number> =>
  (raw) => {
    if (!/^\d+$/.test(raw.trim())) return undefined;
    const value = Number(raw.trim());
    return value >= min && value <= max ? value : undefined;
  };

const onOff: Parse<boolean> = (raw) =>
  ON.includes(raw.trim().toLowerCase()) ? true : OFF.includes(raw.trim().toLowerCase()) ? false : undefined;
const offOr =
  <T>(parse: Parse<T>): Parse<T | null> =>
  (raw) =>
    raw.trim().toLowerCase() === 'off' ? null : parse(raw);
const oneOf =
  <T extends string>(values: readonly T[]): Parse<T> =>
  (raw) =>
    values.find((v) => v === raw.trim().toLowerCase());
const nonEmpty: Parse<string> = (raw) => (raw.trim() === '' ? undefined : raw);
const hostName: Parse<string> = (raw) => (/^[A-Za-z0-9.:_[\]-]+$/.test(raw.trim()) ? raw.trim() : undefined);
const instant: Parse<string> = (raw) =>
  ISO_INSTANT.test(raw.trim()) && !Number.isNaN(Date.parse(raw.trim())) ? new Date(Date.parse(raw.trim())).toISOString() : undefined;
const readableFile: Parse<string> = (raw) => {
  if (raw.trim() === '') return undefined;
  try {
    accessSync(raw, constants.R_OK);
    return statSync(raw).isFile() ? raw : undefined;
  } catch {
    return undefined;
  }
};

interface Setting<K extends keyof Config> {
  key: K;
  env: string;
  /** The `fos-mock serve` option (commander's attribute name and the flag as typed), when there is one. */
  flag?: { name: string; text: string };
  accepted: string;
  parse: Parse<Config[K]>;
}

const setting = <K extends keyof Config>(s: Setting<K>): Setting<K> => s;

/** Every setting of the mock: its variable, its flag, the accepted form and its parser. */
export const SETTINGS = [
  setting({
    key: 'port',
    env: 'PORT',
    flag: { name: 'port', text: '--port' },
    accepted: 'a whole number from 0 to 65535',
    parse: whole(0, 65_535),
  }),
  setting({ key: 'host', env: 'HOST', flag: { name: 'host', text: '--host' }, accepted: 'a host name or IP address', parse: hostName }),
  setting({ key: 'quoteLifetimeMs', env: 'QUOTE_LIFETIME_MS', accepted: 'a whole number of milliseconds, at least 1', parse: whole(1) }),
  setting({
    key: 'strictResponses',
    env: 'STRICT_RESPONSES',
    flag: { name: 'strict', text: '--no-strict' },
    accepted: 'on or off',
    parse: onOff,
  }),
  setting({ key: 'bodyLimitBytes', env: 'BODY_LIMIT_BYTES', accepted: 'a whole number of bytes, at least 1', parse: whole(1) }),
  setting({ key: 'maxHeaderBytes', env: 'MAX_HEADER_BYTES', accepted: 'a whole number of bytes, at least 1024', parse: whole(1024) }),
  setting({
    key: 'requestTimeoutMs',
    env: 'REQUEST_TIMEOUT_MS',
    accepted: `a whole number of milliseconds from 0 (none) to ${MAX_TIMER_MS}`,
    parse: whole(0, MAX_TIMER_MS),
  }),
  setting({
    key: 'headersTimeoutMs',
    env: 'HEADERS_TIMEOUT_MS',
    accepted: `a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`,
    parse: whole(0, MAX_TIMER_MS),
  }),
  setting({
    key: 'rateLimit',
    env: 'RATE_LIMIT',
    accepted: 'off or <requests>/<period> such as 100/1s or 600/1m',
    parse: offOr(rateLimitOf),
  }),
  setting({
    key: 'autoSettleMs',
    env: 'AUTO_SETTLE_MS',
    flag: { name: 'autoSettle', text: '--auto-settle' },
    accepted: `off or a whole number of milliseconds up to ${MAX_TIMER_MS}`,
    parse: offOr(whole(0, MAX_TIMER_MS)),
  }),
  setting({ key: 'secret', env: 'FOS_MOCK_SECRET', accepted: 'a non-empty string', parse: nonEmpty }),
  setting({
    key: 'controlApi',
    env: 'CONTROL_API',
    flag: { name: 'controlApi', text: '--no-control-api' },
    accepted: 'on or off',
    parse: onOff,
  }),
  setting({
    key: 'fixturesPath',
    env: 'FIXTURES',
    flag: { name: 'fixtures', text: '--fixtures' },
    accepted: 'the path of a readable fixture file',
    parse: readableFile,
  }),
  setting({
    key: 'urlPolicy',
    env: 'URL_POLICY',
    accepted: 'development or production',
    parse: oneOf(['development', 'production'] as const),
  }),
  setting({
    key: 'webhookTimeoutMs',
    env: 'WEBHOOK_TIMEOUT_MS',
    accepted: `a whole number of milliseconds from 1 to ${MAX_TIMER_MS}`,
    parse: whole(1, MAX_TIMER_MS),
  }),
  setting({ key: 'webhookSigning', env: 'WEBHOOK_SIGNING', accepted: 'on or off', parse: onOff }),
  setting({
    key: 'clockStart',
    env: 'CLOCK_START',
    flag: { name: 'clockStart', text: '--clock-start' },
    accepted: 'an ISO 8601 instant with a zone, such as 2026-01-15T09:00:00Z',
    parse: instant,
  }),
  setting({ key: 'logLevel', env: 'LOG_LEVEL', accepted: LOG_LEVELS.join(', '), parse: oneOf(LOG_LEVELS) }),
] as const;

/** "100/1s", "600/1m", "5/250ms", "100/s" (a bare unit is one of it); "off" is handled by the caller. */
function rateLimitOf(value: string): RateLimit | undefined {
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

/** RATE_LIMIT's grammar on its own ("off" is null); throws a ConfigError naming RATE_LIMIT. */
export function parseRateLimit(value: string): RateLimit | null {
  return read(SETTINGS.find((s) => s.key === 'rateLimit') as Setting<'rateLimit'>, 'RATE_LIMIT', value);
}

function read<K extends keyof Config>(s: Setting<K>, name: string, raw: string): Config[K] {
  const value = s.parse(raw);
  if (value === undefined) throw new ConfigError(name, raw, s.accepted);
  return value;
}

/** What `fos-mock serve` was given on its command line, as commander parsed it (values unchecked). */
export type ServeFlags = Record<string, string | boolean | undefined>;

/**
 * The one configuration: defaults, then the environment, then the command-line flags, each value
 * checked here and nowhere else. A value of the wrong form throws a ConfigError naming the
 * variable or flag, so `serve` stops before it opens the port. Variables it does not know are
 * none of its business (the environment holds many).
 */
export function configFrom(env: Record<string, string | undefined>, flags: ServeFlags = {}, base: Config = defaultConfig()): Config {
  const config: Config = { ...base };
  const assign = <K extends keyof Config>(s: Setting<K>, name: string, raw: string) => {
    config[s.key] = read(s, name, raw);
  };
  for (const s of SETTINGS as readonly Setting<keyof Config>[]) {
    const fromEnv = env[s.env];
    if (fromEnv !== undefined) assign(s, s.env, fromEnv);
    const flag = s.flag ? flags[s.flag.name] : undefined;
    // A boolean flag is a --no-x switch: present, it turns the setting off.
    if (flag !== undefined && s.flag) assign(s, s.flag.text, typeof flag === 'boolean' ? (flag ? 'on' : 'off') : flag);
  }
  return config;
}

/** A typed value in the text form its setting's parser reads (what a variable would hold). */
function asText(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value === null) return 'off';
  if (typeof value === 'object' && value !== null && 'requests' in value && 'perMs' in value)
    return `${String(value.requests)}/${String(value.perMs)}`;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

const wholeAtLeast = (min: number) => (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

/** Settings with no variable: given in code only (tests, `startMock`). */
const CODE_ONLY: Partial<Record<keyof Config, { accepted: string; valid: (value: unknown) => boolean }>> = {
  idempotencyTtlMs: { accepted: 'a whole number of milliseconds, at least 1', valid: wholeAtLeast(1) },
  tokenLifetimeSeconds: { accepted: 'a whole number of seconds, at least 1', valid: wholeAtLeast(1) },
  retryScheduleMs: {
    accepted: 'a list of whole numbers of milliseconds',
    valid: (value) => Array.isArray(value) && value.every((ms) => wholeAtLeast(0)(ms) && (ms as number) <= MAX_TIMER_MS),
  },
};

/**
 * The configuration from typed options (`startMock`, the app factory's callers): each option is
 * checked by the same parser as its variable, and a bad one throws a ConfigError naming the
 * option, so a mock in a test suite refuses what `fos-mock serve` refuses.
 */
export function checkedConfig(options: Partial<Config>, base: Config = defaultConfig()): Config {
  const config: Config = { ...base };
  const settings = new Map<string, Setting<keyof Config>>((SETTINGS as readonly Setting<keyof Config>[]).map((s) => [s.key, s]));
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const setting = settings.get(key);
    const codeOnly = CODE_ONLY[key as keyof Config];
    if (setting) {
      (config as unknown as Record<string, unknown>)[key] = read(setting, key, asText(value));
    } else if (codeOnly) {
      if (!codeOnly.valid(value)) throw new ConfigError(key, asText(value), codeOnly.accepted);
      (config as unknown as Record<string, unknown>)[key] = value;
    } else {
      throw new ConfigError(key, asText(value), `one of the options ${[...settings.keys(), ...Object.keys(CODE_ONLY)].join(', ')}`);
    }
  }
  return config;
}
