// A container with a volume keeps its state across `podman restart` without Redis
// (STATE_FILE=/data/state.json on the volume): accounts, balances, operations, idempotency keys,
// subscriptions, the clock and the pending auto-settlement are the same after the restart, a token
// from before still works (FOS_MOCK_SECRET set), the same idempotency key answers the same
// operation, and the auto-settlement waiting at the restart runs after it.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { retrying } from '../../test/support/waits';
import { ROOT } from '../contract/lib';
import { healthy } from './container-run';
import { call, check, demoToken } from './http';
import { podmanOk } from './podman';

/** The demo customer's account with BRL to spare (the scenarios' "funded" account). */
function fundedAccount(): string {
  const demo = JSON.parse(readFileSync(`${ROOT}/fixtures/demo.json`, 'utf8')) as {
    customers: Array<{ id: string; clientId: string }>;
    accounts: Array<{ id: string; customer: { id: string } }>;
    balances: Array<{ accountId: string; asset: string; value: string }>;
  };
  const customer = demo.customers.find((c) => c.clientId === 'demo-client')!;
  const mine = new Set(demo.accounts.filter((a) => a.customer.id === customer.id).map((a) => a.id));
  const funded = demo.balances.find((b) => mine.has(b.accountId) && b.asset === 'BRL' && Number(b.value) > 0);
  if (!funded) throw new Error('fixtures/demo.json: the demo customer has no account with BRL');
  return funded.accountId;
}

/** The run arguments of the state-file container: a named volume at /data, the file on it, a fixed secret. */
export function stateRunArgs(volume: string): string[] {
  return ['-v', `${volume}:/data`, '-e', 'STATE_FILE=/data/state.json', '-e', `FOS_MOCK_SECRET=${randomBytes(24).toString('hex')}`];
}

interface Seen {
  snapshot: unknown;
  jobs: unknown;
}

async function look(url: string): Promise<Seen> {
  const snapshot = await call(url, 'GET', '/_mock/snapshot');
  check(snapshot.status === 200, 'GET /_mock/snapshot', snapshot);
  const jobs = await call(url, 'GET', '/_mock/jobs');
  check(jobs.status === 200, 'GET /_mock/jobs', jobs);
  // A job's id is the queue's own counter, made again at start: the rest must be the same.
  const data = (jobs.body as { data: Array<Record<string, unknown>> }).data.map(({ id: _id, ...rest }) => rest);
  return { snapshot: snapshot.body, jobs: data };
}

/** Makes state, restarts the container, and checks it; returns lines for the summary. */
export async function stateSurvivesRestart(name: string, url: string): Promise<string[]> {
  const frozen = await call(url, 'POST', '/_mock/clock/freeze');
  check(frozen.status === 200, 'POST /_mock/clock/freeze', frozen);
  const token = await demoToken(url);
  const auth = { Authorization: `Bearer ${token}` };
  const accountId = fundedAccount();

  const subscription = await call(
    url,
    'POST',
    '/api/subscriptions',
    { url: 'http://127.0.0.1:9/hooks', resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }] },
    { ...auth, 'X-Idempotency-Key': randomUUID() },
  );
  check(subscription.status === 201, 'POST /api/subscriptions', subscription);
  const quote = await call(
    url,
    'POST',
    '/v1/quotes',
    { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '150.00' },
    { ...auth, 'X-Idempotency-Key': randomUUID() },
  );
  check(quote.status === 201, 'POST /v1/quotes', quote);
  const depositKey = randomUUID();
  const depositBody = { accountId, quoteId: (quote.body as { id: string }).id, fundingInstruction: { rail: 'PIX' } };
  const deposit = await call(url, 'POST', '/v1/operations/deposits', depositBody, { ...auth, 'X-Idempotency-Key': depositKey });
  check(deposit.status === 201, 'POST /v1/operations/deposits', deposit);
  const operationId = (deposit.body as { id: string }).id;

  const before = await look(url);
  check(JSON.stringify(before.jobs).includes(operationId), `the deposit's auto-settlement is pending before the restart`);
  await podmanOk(['restart', '-t', '10', name]);
  await retrying(`the token call of container ${name} after its restart`, () => demoToken(url), { pauseMs: 50 });
  const after = await look(url);

  check(isDeepStrictEqual(after.snapshot, before.snapshot), 'the snapshot after the restart equals the one before');
  check(isDeepStrictEqual(after.jobs, before.jobs), `the pending jobs after the restart equal those before: ${JSON.stringify(after.jobs)}`);
  check(await healthy(name), 'the health check after the restart');
  const again = await call(url, 'POST', '/v1/operations/deposits', depositBody, { ...auth, 'X-Idempotency-Key': depositKey });
  check(
    again.status === 201 && (again.body as { id?: string }).id === operationId,
    'the same idempotency key answers the same deposit (and the old token works)',
    again,
  );
  const advanced = await call(url, 'POST', '/_mock/clock/advance', { by: '5s' });
  check(advanced.status === 200, 'POST /_mock/clock/advance', advanced);
  const settled = await retrying('the deposit to settle after the restart', async () => {
    const op = await call(url, 'GET', `/v1/operations/${operationId}`, undefined, auth);
    const status = (op.body as { currentState?: { status?: string } }).currentState?.status;
    if (status !== 'COMPLETED') throw new Error(`status ${status}`);
    return status;
  });
  return [
    `  state file on a volume, podman restart: snapshot (accounts, balances, operations, keys, subscriptions, clock) ` +
      `and pending jobs the same; old token and idempotency key still answered; the deposit pending at the restart ${settled} after it`,
  ];
}
