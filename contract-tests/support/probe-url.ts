// Run in a child process (node --import tsx) by capabilities.ts for a target at a URL: asks the
// control URL for GET /_mock/health and, when there is no control API, whether the target keeps
// state at all. A stateless example server (`prism mock spec/openapi.yaml`) answers every
// well-formed request with the document's example: a record nobody created reads back 200, and
// a record just created does not read back as it was sent. Either is evidence enough; with no
// evidence the target counts as stateful. Prints
// {"status": <health status>, "ok": <control API>, "stateful": <bool>, "statefulNote": "..."}.
import { randomUUID } from 'node:crypto';
import { field } from './json';
import { settings } from './settings';

interface Answer {
  status: number | string;
  /** Whatever JSON the target answered, unchecked: read through `field`. */
  body: unknown;
}

async function call(url: string, method = 'GET', headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed };
  } catch (error) {
    const e = error as { cause?: { code?: string }; message?: string };
    return { status: String(e.cause?.code ?? e.message), body: undefined };
  }
}

/** Evidence that the target keeps no state, or undefined when it behaved like a stateful one. */
async function statelessEvidence(baseUrl: string): Promise<{ stateful: boolean; note: string }> {
  const customer = settings().customer;
  if (!customer) return { stateful: true, note: 'not probed (no CONTRACT_CLIENT_ID): assumed stateful' };
  const token = await call(`${baseUrl}/api/oauth/client/token`, 'POST', {}, customer);
  const accessToken = field(token.body, 'accessToken');
  if (token.status !== 200 || typeof accessToken !== 'string')
    return { stateful: true, note: `not probed (the token call answered ${token.status}): assumed stateful` };
  const auth = { authorization: `Bearer ${accessToken}` };

  const ghostId = randomUUID();
  const ghost = await call(`${baseUrl}/v1/quotes/${ghostId}`, 'GET', auth);
  if (ghost.status === 200)
    return { stateful: false, note: `stateless target: a quote nobody created (GET /v1/quotes/${ghostId}) answered 200` };

  // Create a quote (it moves no money and expires by itself) and read it back.
  const accounts = await call(`${baseUrl}/api/accounts?limit=1`, 'GET', auth);
  const accountId = field(accounts.body, 'data', 0, 'id');
  if (accounts.status !== 200 || typeof accountId !== 'string')
    return { stateful: true, note: 'no evidence of statelessness (no account to quote on)' };
  const sent = '13.37';
  const created = await call(
    `${baseUrl}/v1/quotes`,
    'POST',
    { ...auth, 'x-idempotency-key': randomUUID() },
    { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: sent },
  );
  const quoteId = field(created.body, 'id');
  if (created.status !== 201 || typeof quoteId !== 'string')
    return { stateful: true, note: `no evidence of statelessness (creating a quote answered ${created.status})` };
  const cameBack = { amount: field(created.body, 'sourceAmount', 'value'), accountId: field(created.body, 'accountId') };
  if (cameBack.amount !== sent || cameBack.accountId !== accountId) {
    return {
      stateful: false,
      note:
        `stateless target: a quote asked for ${sent} BRL on account ${accountId} ` +
        `came back as ${String(cameBack.amount)} on ${String(cameBack.accountId)}`,
    };
  }
  const read = await call(`${baseUrl}/v1/quotes/${quoteId}`, 'GET', auth);
  if (read.status !== 200 || JSON.stringify(read.body) !== JSON.stringify(created.body)) {
    return {
      stateful: false,
      note: `stateless target: the quote just created (${quoteId}) read back ${read.status} ${JSON.stringify(read.body).slice(0, 120)}`,
    };
  }
  return { stateful: true, note: 'stateful: a quote created read back as created, and an unknown one answered 404' };
}

async function main(): Promise<void> {
  const { baseUrl, controlUrl } = settings();
  if (!baseUrl) throw new Error('probe-url: CONTRACT_BASE_URL is not set');
  const health = await call(`${controlUrl ?? baseUrl}/_mock/health`);
  const ok = health.status === 200 && field(health.body, 'status') === 'ok';
  const state = ok ? { stateful: true, note: 'the control API is there: fos-mock keeps state' } : await statelessEvidence(baseUrl);
  process.stdout.write(JSON.stringify({ status: health.status, ok, stateful: state.stateful, statefulNote: state.note }));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(String((error as Error)?.stack ?? error));
    process.exit(1);
  },
);
