// What `fos-mock serve --help` says after its options: every setting `serve` reads, from the one
// table of settings (mock/config.ts), with its variable, its flag, what it does, the accepted form
// and the default. A setting added to the table without a meaning here does not compile.
import { defaultConfig, SETTINGS, type Config } from '../config';

type SettingKey = (typeof SETTINGS)[number]['key'];
type Setting = { key: SettingKey; env: string; flag?: { text: string }; accepted: string };

const MEANING: Record<SettingKey, string> = {
  port: 'port to listen on (0 picks a free one)',
  host: 'interface to listen on',
  quoteLifetimeMs: 'how long a quote can be used, in mock time',
  strictResponses: 'check every response against the API document before sending it',
  bodyLimitBytes: 'largest request body (413 beyond)',
  maxHeaderBytes: 'largest request line and headers (431 beyond)',
  requestTimeoutMs: 'real time to receive a whole request (408 beyond)',
  headersTimeoutMs: "real time to receive a request's head (408 beyond)",
  rateLimit: 'per-customer rate limit in mock time (429 beyond)',
  autoSettleMs: 'settle operations this long after creation, in mock time',
  secret: 'signs tokens and cursors',
  redisUrl: 'keep the whole state in this Redis, shared by every replica on it',
  stateFile: 'keep the state in this file too: loaded at start, written after changes and on stop',
  redisPrefix: "prefix of the mock's Redis keys",
  jobLeaseMs: 'how long a replica holds a job it claimed',
  controlApi: 'serve the /_mock control API',
  fixturesPath: 'the demo data to load',
  urlPolicy: 'which webhook subscription URLs are accepted',
  webhookTimeoutMs: 'webhook delivery time-out',
  webhookSigning: 'sign webhook deliveries (Standard Webhooks)',
  clockStart: 'start the mock clock at this instant',
  logLevel: 'how much is logged (info: a line per request and per webhook attempt; silent: nothing)',
  allowedHosts: "hosts the control API and the inspector answer besides loopback ones and HOST (a container's name; * for any)",
  logFormat: 'how log lines are written (auto: readable text on a terminal, JSON lines otherwise)',
};

/** Defaults whose value says less than a word would. */
const DEFAULT_TEXT: Partial<Record<SettingKey, string>> = {
  secret: 'random per process (with REDIS_URL, kept in Redis)',
  redisUrl: 'none: the state is in memory',
  stateFile: 'none: a restart starts again from the fixtures',
  fixturesPath: 'the demo data (fixtures/demo.json)',
  clockStart: 'now',
  rateLimit: 'off',
  autoSettleMs: '5000',
  allowedHosts: 'none (loopback names and addresses, and HOST, only)',
};

function defaultText(key: SettingKey, config: Config): string {
  const given = DEFAULT_TEXT[key];
  if (given !== undefined) return given;
  const value = config[key];
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** The settings section of `serve --help`. */
export function settingsHelp(): string {
  const config = defaultConfig();
  const lines = ['', 'Settings (environment variable, and flag when there is one; a flag wins over its variable):'];
  for (const s of SETTINGS as readonly Setting[]) {
    const flag = s.flag ? `, ${s.flag.text}` : '';
    lines.push(`  ${s.env}${flag}`, `      ${MEANING[s.key]}: ${s.accepted}; default ${defaultText(s.key, config)}`);
  }
  return lines.join('\n');
}
