// The checks at the end of a run, over everything it did: every operation walked to the end of
// the list (each in a state its lifecycle allows), each transition's event delivered to the
// run's receiver, and each account's balances equal to its starting balances plus its settled
// movements.
import { Decimal } from 'decimal.js';
import { eventsAlong, initialOf, transitionOf } from '../../spec/lifecycles';
import type { Model } from './model';
import { compareEvents } from './compare';
import { observe } from './observe';
import { checkMembers, walk } from './pages';
import { HOOK_SUBSCRIPTION, RECEIVER, type RunContext } from './run-context';
import { loadContract, type Contract } from '../../spec/contract';

let contract: Contract | undefined;
/** The document's webhook schemas, compiled once (the validators the build generated when they match). */
const webhookContract = () => (contract ??= loadContract(undefined, { precompiled: true }));

export type Balances = Map<string, Map<string, string>>;

/** What the run starts from: each account's balances, and the operations already COMPLETED (a customer with a history). */
export interface Start {
  balances: Balances;
  completed: Set<string>;
}

interface OperationBody {
  id: string;
  accountId: string;
  sourceAmount: { value: string; asset: string };
  targetAmount: { value: string; asset: string };
  intent: { type: string; targetAccount?: { id?: string } };
  currentState: { status: string };
}

/** The balances and the completed operations at the start, read apart from the run's steps. */
export async function readStart(run: RunContext): Promise<Start> {
  const completed = new Set<string>();
  // A fresh customer has no operations; a given one (--client-id) may have many, each already counted.
  if (run.session.customer.clientId.startsWith('client-') === false || !run.target.isMock || run.session.clockPath === '/clock') {
    let cursor: string | undefined;
    do {
      const query = `limit=100&sortOrder=ASCENDING${cursor ? `&cursor=${cursor}&direction=NEXT` : ''}`;
      const answer = await run.target.client.send('GET', `/v1/operations?${query}`, {
        headers: { authorization: `Bearer ${run.session.token}` },
      });
      const body = answer.body as { data?: OperationBody[]; meta?: { nextCursor?: string | null } };
      for (const op of body.data ?? []) if (op.currentState?.status === 'COMPLETED') completed.add(op.id);
      cursor = answer.status === 200 ? (body.meta?.nextCursor ?? undefined) : undefined;
    } while (cursor);
  }
  return { balances: await readBalances(run), completed };
}

/** Each of the customer's accounts' balances, read through the control API (not a step of the run). */
async function readBalances(run: RunContext): Promise<Balances> {
  const balances: Balances = new Map();
  for (const id of run.session.customer.accounts) {
    const answer = await run.target.client.control('GET', `/accounts/${id}/balances`);
    const body = answer.body as { balances?: Record<string, string> };
    balances.set(id, new Map(Object.entries(body.balances ?? {})));
  }
  return balances;
}

export async function finalChecks(model: Model, run: RunContext, start: Start | undefined): Promise<void> {
  const walked = await walk(run, '/v1/operations', 100, 'ASCENDING');
  const known = model.operations.map((o) => run.value(`{{${o.name}}}`)).filter((id): id is string => typeof id === 'string');
  checkMembers(run, '/v1/operations', walked, known, run.foreign.operation ? [run.foreign.operation] : []);
  const records = (walked.records ?? []) as unknown as OperationBody[];
  for (const op of model.operations) {
    const record = records.find((r) => r.id === run.value(`{{${op.name}}}`));
    if (record) observe(run, op, record, 'GET /v1/operations at the end');
  }
  if (run.receiver) await checkEvents(model, run);
  if (run.twin?.receiver && run.receiver) compareEvents(run, run.twin);
  if (start && run.target.isMock && walked.records) await checkBalances(run, start, records);
}

async function checkEvents(model: Model, run: RunContext): Promise<void> {
  await run.do({ webhooks: 'idle' });
  // The receiver's deliveries, as the subscription's execution logs say them (checked against the document).
  if (run.value(`{{${HOOK_SUBSCRIPTION}}}`) !== undefined)
    await walk(run, `/v1/subscriptions/{{${HOOK_SUBSCRIPTION}}}/executionLogs`, 100, 'DESCENDING');
  for (const delivery of run.receiver!.received) {
    const type = String(delivery.headers['x-event-type'] ?? '');
    let payload: unknown;
    try {
      payload = JSON.parse(delivery.body);
    } catch {
      run.fail('events.payload', `a ${type} delivery's body is not JSON`);
    }
    const { errors } = webhookContract().checkWebhook(type, payload);
    if (errors.length > 0)
      run.fail(
        'events.payload',
        `a ${type} payload breaks the document: ${errors
          .slice(0, 3)
          .map((e) => `${e.field} ${e.message}`)
          .join('; ')}`,
      );
  }
  const byOperation = new Map<string, string[]>();
  for (const delivery of run.receiver!.received) {
    const type = String(delivery.headers['x-event-type'] ?? '');
    if (!type.startsWith('OPERATION_')) continue;
    let id: unknown;
    try {
      id = (JSON.parse(delivery.body) as { id?: unknown }).id;
    } catch {
      continue; // the document check of the payload is the mock's own test's; here only the type counts
    }
    if (typeof id === 'string') byOperation.set(id, [...(byOperation.get(id) ?? []), type]);
  }
  for (const op of model.operations) {
    const id = run.value(`{{${op.name}}}`);
    const got = byOperation.get(String(id)) ?? [];
    // The events along the moves the run saw one by one; after a move it saw only across several
    // states (A → C through B) the states between are unknown, and so are their events.
    let seen = 1;
    while (seen < op.statuses.length && transitionOf('operation', op.statuses[seen - 1]!, op.statuses[seen]!)) seen++;
    const known = op.statuses.length > 0 && initialOf('operation', op.statuses[0]!) !== undefined;
    const expected = known ? eventsAlong('operation', op.statuses.slice(0, seen)) : [];
    const left = [...got];
    const missing = expected.filter((type) => {
      const at = left.indexOf(type);
      if (at === -1) return true;
      left.splice(at, 1);
      return false;
    });
    if (missing.length > 0)
      run.fail(
        'lifecycle.events',
        `${op.name} went ${op.statuses.join(' → ')}; receiver ${RECEIVER} got [${got.join(', ')}], missing [${missing.join(', ')}]`,
      );
  }
}

async function checkBalances(run: RunContext, { balances: start, completed }: Start, operations: OperationBody[]): Promise<void> {
  const expected = new Map<string, Decimal>();
  const key = (account: string, asset: string) => `${account} ${asset}`;
  for (const [account, assets] of start) for (const [asset, value] of assets) expected.set(key(account, asset), new Decimal(value));
  const move = (account: string | undefined, asset: string, delta: Decimal) => {
    if (!account || !start.has(account)) return;
    expected.set(key(account, asset), (expected.get(key(account, asset)) ?? new Decimal(0)).plus(delta));
  };
  for (const op of operations) {
    if (op.currentState?.status !== 'COMPLETED' || completed.has(op.id)) continue;
    const source = new Decimal(op.sourceAmount.value);
    const target = new Decimal(op.targetAmount.value);
    const type = op.intent.type;
    if (type === 'DEPOSIT') move(op.accountId, op.targetAmount.asset, target);
    if (type === 'WITHDRAWAL' || type === 'SWAP' || type === 'TRANSFER') move(op.accountId, op.sourceAmount.asset, source.negated());
    if (type === 'SWAP') move(op.accountId, op.targetAmount.asset, target);
    if (type === 'TRANSFER') move(op.intent.targetAccount?.id, op.targetAmount.asset, target);
  }
  for (const [index, account] of run.session.customer.accounts.entries()) {
    const answer = await run.do({ control: `GET /accounts/{{customer.accounts[${index}]}}/balances` });
    const now = (answer.body as { balances?: Record<string, string> }).balances ?? {};
    for (const [k, want] of expected) {
      const [acc, asset] = k.split(' ') as [string, string];
      if (acc !== account) continue;
      const got = now[asset];
      if (got === undefined || !new Decimal(got).equals(want))
        run.fail(
          'money.balances',
          `account ${index} (${account}) holds ${got ?? 'nothing'} ${asset}; ` +
            `its start ${start.get(account)?.get(asset) ?? '0'} plus its completed operations make ${want.toFixed()}`,
        );
    }
  }
}
