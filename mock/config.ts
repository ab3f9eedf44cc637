// The mock's configuration: one typed object, read once (by main) from the environment and
// command-line flags. Nothing else in the code reads process.env.
import { randomBytes } from 'node:crypto';
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
  /** Largest accepted request head (request line and headers) in bytes, at least 1024; larger is 431 (env MAX_HEADER_BYTES, default 16 KiB). */
  maxHeaderBytes: number;
  /** Real time allowed to receive a whole request, head and body; slower is 408 and the connection closed (env REQUEST_TIMEOUT_MS, default 30 s; 0 for none). */
  requestTimeoutMs: number;
  /** Real time allowed to receive a request's head, never more than requestTimeoutMs; slower is 408 (env HEADERS_TIMEOUT_MS, default 10 s; 0: only requestTimeoutMs bounds it). */
  headersTimeoutMs: number;
  /** Per-customer rate limit, `requests` per `perMs` of mock time (429 RATE_LIMITED beyond; the token call per client id); null for none (env RATE_LIMIT, "100/1s" or "off"; default off, an assumption of ours). */
  rateLimit: RateLimit | null;
  /** Operations settle this long after creation, in ms of mock time; null leaves them to the control API (env AUTO_SETTLE_MS, "off" for null; default 5 s). */
  autoSettleMs: number | null;
  /** How long an idempotency key is remembered, in ms of mock time (DESIGN.md: 24 h). */
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
  /** Sign webhook deliveries per the Standard Webhooks scheme and show each subscription's secret (env WEBHOOK_SIGNING, default off: the seed documents no signing). */
  webhookSigning: boolean;
  /** Delays before each retry of a failed delivery, in ms of mock time (DESIGN.md: 5 s, 30 s, 2 min, 10 min, 1 h). */
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

function bool(value: string, name: string): boolean {
  if (['1', 'true', 'on', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(value.toLowerCase())) return false;
  throw new Error(`${name} must be on or off, got "${value}"`);
}

function int(value: string, name: string, min = 0): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) throw new Error(`${name} must be a whole number >= ${min}, got "${value}"`);
  return parsed;
}

/** "100/1s", "600/1m", "5/250ms", "100/s" (a bare unit is one of it), or "off". */
export function parseRateLimit(value: string, name = 'RATE_LIMIT'): RateLimit | null {
  if (value.toLowerCase() === 'off') return null;
  const problem = `${name} must be off or <requests>/<period> such as 100/1s or 600/1m, got "${value}"`;
  const match = /^(\d+)\/(\w+)$/.exec(value.trim());
  if (!match) throw new Error(problem);
  const requests = Number(match[1]);
  let perMs: number;
  try {
    perMs = parseDuration(/^(d|h|m|s|ms)$/.test(match[2]!) ? `1${match[2]}` : match[2]);
  } catch {
    throw new Error(problem);
  }
  if (!Number.isSafeInteger(requests) || requests < 1 || perMs < 1) throw new Error(problem);
  return { requests, perMs };
}

/** Reads the environment once; unknown or malformed values stop start-up with a clear message. */
export function configFromEnv(env: Record<string, string | undefined>, base: Config = defaultConfig()): Config {
  const config = { ...base };
  if (env.PORT !== undefined) config.port = int(env.PORT, 'PORT');
  if (env.HOST !== undefined) config.host = env.HOST;
  if (env.QUOTE_LIFETIME_MS !== undefined) config.quoteLifetimeMs = int(env.QUOTE_LIFETIME_MS, 'QUOTE_LIFETIME_MS', 1);
  if (env.STRICT_RESPONSES !== undefined) config.strictResponses = bool(env.STRICT_RESPONSES, 'STRICT_RESPONSES');
  if (env.BODY_LIMIT_BYTES !== undefined) config.bodyLimitBytes = int(env.BODY_LIMIT_BYTES, 'BODY_LIMIT_BYTES', 1);
  if (env.MAX_HEADER_BYTES !== undefined) config.maxHeaderBytes = int(env.MAX_HEADER_BYTES, 'MAX_HEADER_BYTES', 1024);
  if (env.REQUEST_TIMEOUT_MS !== undefined) config.requestTimeoutMs = int(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS');
  if (env.HEADERS_TIMEOUT_MS !== undefined) config.headersTimeoutMs = int(env.HEADERS_TIMEOUT_MS, 'HEADERS_TIMEOUT_MS');
  if (env.RATE_LIMIT !== undefined) config.rateLimit = parseRateLimit(env.RATE_LIMIT);
  if (env.AUTO_SETTLE_MS !== undefined) config.autoSettleMs = env.AUTO_SETTLE_MS === 'off' ? null : int(env.AUTO_SETTLE_MS, 'AUTO_SETTLE_MS');
  if (env.FOS_MOCK_SECRET !== undefined) config.secret = env.FOS_MOCK_SECRET;
  if (env.CONTROL_API !== undefined) config.controlApi = bool(env.CONTROL_API, 'CONTROL_API');
  if (env.FIXTURES !== undefined) config.fixturesPath = env.FIXTURES;
  if (env.URL_POLICY !== undefined) {
    if (env.URL_POLICY !== 'development' && env.URL_POLICY !== 'production') throw new Error(`URL_POLICY must be development or production`);
    config.urlPolicy = env.URL_POLICY;
  }
  if (env.WEBHOOK_TIMEOUT_MS !== undefined) config.webhookTimeoutMs = int(env.WEBHOOK_TIMEOUT_MS, 'WEBHOOK_TIMEOUT_MS', 1);
  if (env.WEBHOOK_SIGNING !== undefined) config.webhookSigning = bool(env.WEBHOOK_SIGNING, 'WEBHOOK_SIGNING');
  if (env.CLOCK_START !== undefined) config.clockStart = env.CLOCK_START;
  if (env.LOG_LEVEL !== undefined) config.logLevel = env.LOG_LEVEL;
  return config;
}
