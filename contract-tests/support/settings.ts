// The suite's settings, read once from the environment; no other module of contract-tests reads
// process.env (the run id set by the reporter excepted, see run.ts).
export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface SuiteSettings {
  /** CONTRACT_BASE_URL: a running server; absent, each test file starts the mock in-process. */
  baseUrl?: string;
  /**
   * CONTRACT_CONTROL_URL: where the control API (/_mock) is served when it is not at the target,
   * e.g. the mock itself while the target is a validating proxy in front of it (the proxy knows
   * only the public document). Default: CONTRACT_BASE_URL.
   */
  controlUrl?: string;
  /**
   * CONTRACT_PROXY=prism: the target is reached through Prism's validating proxy, which parses
   * and re-serialises request bodies and refuses a body on a GET: a request whose raw bytes
   * are the point of the test (malformed JSON, a body where none is taken) never reaches the
   * target as sent, so those tests skip.
   */
  proxy?: 'prism';
  /** CONTRACT_CLIENT_ID / CONTRACT_CLIENT_SECRET: the customer the suite acts as (not needed with a control API). */
  customer?: Credentials;
  /** CONTRACT_CLIENT_ID_2 / CONTRACT_CLIENT_SECRET_2: a second customer, for tenancy checks without a control API. */
  otherCustomer?: Credentials;
  /** CONTRACT_ALLOW_WRITES=1: let the suite create money-moving operations on a target that is not a mock. */
  allowWrites: boolean;
  /** CONTRACT_WEBHOOK_URL: a public URL that reaches the suite's webhook receiver (for a remote target). */
  webhookUrl?: string;
  /** CONTRACT_WEBHOOK_PORT: the local port the receiver listens on behind CONTRACT_WEBHOOK_URL (default: the URL's port). */
  webhookPort?: number;
  /** CONTRACT_REPORT_DIR: where records and the Markdown summary go (default reports). */
  reportDir?: string;
}

function credentials(id: string | undefined, secret: string | undefined, names: string): Credentials | undefined {
  if (id === undefined && secret === undefined) return undefined;
  if (!id || !secret) throw new Error(`contract suite: set both ${names}, or neither`);
  return { clientId: id, clientSecret: secret };
}

function readSettings(env: Record<string, string | undefined>): SuiteSettings {
  const baseUrl = env.CONTRACT_BASE_URL?.replace(/\/+$/, '') || undefined;
  if (baseUrl && !/^https?:\/\//.test(baseUrl))
    throw new Error(`contract suite: CONTRACT_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  const controlUrl = env.CONTRACT_CONTROL_URL?.replace(/\/+$/, '') || undefined;
  if (controlUrl && !/^https?:\/\//.test(controlUrl))
    throw new Error(`contract suite: CONTRACT_CONTROL_URL must be an http(s) URL, got "${controlUrl}"`);
  if (controlUrl && !baseUrl)
    throw new Error('contract suite: CONTRACT_CONTROL_URL needs CONTRACT_BASE_URL (the in-process mock serves its own control API)');
  const proxy = env.CONTRACT_PROXY || undefined;
  if (proxy !== undefined && proxy !== 'prism') throw new Error(`contract suite: CONTRACT_PROXY knows only "prism", got "${proxy}"`);
  const webhookUrl = env.CONTRACT_WEBHOOK_URL?.replace(/\/+$/, '') || undefined;
  let webhookPort: number | undefined;
  if (env.CONTRACT_WEBHOOK_PORT !== undefined) {
    webhookPort = Number(env.CONTRACT_WEBHOOK_PORT);
    if (!Number.isInteger(webhookPort) || webhookPort <= 0) throw new Error('contract suite: CONTRACT_WEBHOOK_PORT must be a port number');
  } else if (webhookUrl) {
    const url = new URL(webhookUrl);
    webhookPort = url.port ? Number(url.port) : undefined;
    if (webhookPort === undefined)
      throw new Error('contract suite: CONTRACT_WEBHOOK_URL has no port; set CONTRACT_WEBHOOK_PORT to the local port it forwards to');
  }
  return {
    baseUrl,
    controlUrl,
    proxy,
    customer: credentials(env.CONTRACT_CLIENT_ID, env.CONTRACT_CLIENT_SECRET, 'CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET'),
    otherCustomer: credentials(env.CONTRACT_CLIENT_ID_2, env.CONTRACT_CLIENT_SECRET_2, 'CONTRACT_CLIENT_ID_2 and CONTRACT_CLIENT_SECRET_2'),
    allowWrites: ['1', 'true', 'yes', 'on'].includes((env.CONTRACT_ALLOW_WRITES ?? '').toLowerCase()),
    webhookUrl,
    webhookPort,
    reportDir: env.CONTRACT_REPORT_DIR || undefined,
  };
}

let cached: SuiteSettings | undefined;
export function settings(): SuiteSettings {
  return (cached ??= readSettings(process.env));
}

/** The in-process mock's documented demo customers (README, docs/fixtures.md), used only when no control API makes fresh ones. */
export const DEMO_CUSTOMERS: [Credentials, Credentials] = [
  { clientId: 'demo-client', clientSecret: 'demo-secret' },
  { clientId: 'demo-client-2', clientSecret: 'demo-secret-2' },
];
