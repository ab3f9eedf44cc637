// Before the steps: the customer whose token the calls carry (a fresh isolated one by default),
// its token, and the built-in template values - `customer.*` and `accounts.funded` /
// `accounts.editable`, found by asking the mock rather than assumed.
import { UserError } from './errors';
import { describeAnswer, type HttpAnswer, type MockClient } from './http';
import type { CustomerSpec, Scenario } from './types';

export const DEMO_CREDENTIALS = { clientId: 'demo-client', clientSecret: 'demo-secret' };

/** The client secret a recorded scenario logs in with, and the one `fixtures pull` gives the customers it writes. */
export const LOCAL_SECRET = 'fos-mock-local';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface CustomerBuiltIns {
  id: string;
  clientId: string;
  clientSecret: string;
  /** Account ids in creation order (for a fresh customer, the order POST /_mock/customers gives). */
  accounts: string[];
  beneficiaries: string[];
}

export interface Session {
  customer: CustomerBuiltIns;
  /** `funded`: the account with the most BRL (needs the control API); `editable`: the one in ACTION_REQUIRED. */
  accounts: { funded?: string; editable?: string };
  token: string;
  /** Where `clock` steps go under /_mock: the mock's clock, or the customer's own (scenario `clock`). */
  clockPath: string;
  /** A new token for the same customer (after the clock moved). */
  refreshToken(): Promise<void>;
}

export class SetupError extends UserError {
  override name = 'SetupError';
}

function expectStatus(answer: HttpAnswer, status: number, what: string): void {
  if (answer.status !== status) throw new SetupError(`${what} answered ${describeAnswer(answer)} (expected ${status})`);
}

/**
 * Whether the scenario needs /_mock: a reset, a fresh customer, control, clock or webhook steps, or
 * event checks (they wait for deliveries).
 */
export function needsControlApi(scenario: Scenario): boolean {
  if (scenario.reset || (scenario.customer ?? 'fresh') === 'fresh') return true;
  return scenario.steps.some(
    (s) => s.control !== undefined || s.clock !== undefined || s.webhooks !== undefined || s['expect-events'] !== undefined,
  );
}

/** `funded: false`: no look-up of `accounts.funded` (a caller that never names it saves a call per account). */
export async function prepareSession(
  client: MockClient,
  scenario: Scenario,
  control: boolean,
  options: { funded?: boolean } = {},
): Promise<Session> {
  const spec = scenario.customer ?? 'fresh';
  // A clock of its own is given at creation only: to a fresh customer.
  if (scenario.clock !== undefined && spec !== 'fresh')
    throw new SetupError('clock: a clock of its own needs customer: fresh (a clock is given to a customer when it is created)');
  const ownClock =
    scenario.clock === undefined ? undefined : scenario.clock === 'own' ? { frozen: true } : { frozen: true, ...scenario.clock };
  let credentials = spec === 'demo' ? DEMO_CREDENTIALS : typeof spec === 'object' ? spec : undefined;
  let fresh: { customerId: string; accounts: string[]; beneficiaries: string[] } | undefined;
  if (!credentials) {
    const name = `scenario: ${scenario.name}`.slice(0, 200);
    const answer = await client.control('POST', '/customers', ownClock ? { name, clock: ownClock } : { name });
    expectStatus(answer, 201, 'POST /_mock/customers');
    const body = answer.body as { customerId: string; clientId: string; clientSecret: string; accounts: string[]; beneficiaries: string[] };
    credentials = { clientId: body.clientId, clientSecret: body.clientSecret };
    fresh = body;
  }
  const login = credentials;
  const fetchToken = async () => {
    const answer = await client.send('POST', '/api/oauth/client/token', { body: login });
    if (answer.status === 401) throw refused(client, spec, login, answer);
    expectStatus(answer, 200, 'POST /api/oauth/client/token');
    return (answer.body as { accessToken: string }).accessToken;
  };
  const session: Session = {
    token: await fetchToken(),
    customer: { id: '', clientId: login.clientId, clientSecret: login.clientSecret, accounts: [], beneficiaries: [] },
    accounts: {},
    clockPath: ownClock && fresh ? `/customers/${fresh.customerId}/clock` : '/clock',
    async refreshToken() {
      session.token = await fetchToken();
    },
  };
  const auth = { authorization: `Bearer ${session.token}` };

  const accountList = await client.send('GET', '/api/accounts?limit=100&sortOrder=ASCENDING', { headers: auth });
  expectStatus(accountList, 200, 'GET /api/accounts');
  const accounts = (accountList.body as { data: Array<{ id: string; customer: { id: string }; currentState: { status: string } }> }).data;
  session.accounts.editable = accounts.find((a) => a.currentState.status === 'ACTION_REQUIRED')?.id;

  if (fresh) {
    session.customer = { ...session.customer, id: fresh.customerId, accounts: fresh.accounts, beneficiaries: fresh.beneficiaries };
  } else {
    const list = await client.send('GET', '/v1/beneficiaries?limit=100&sortOrder=ASCENDING', { headers: auth });
    expectStatus(list, 200, 'GET /v1/beneficiaries');
    session.customer.id = accounts[0]?.customer.id ?? subject(session.token);
    session.customer.accounts = accounts.map((a) => a.id);
    session.customer.beneficiaries = (list.body as { data: Array<{ id: string }> }).data.map((b) => b.id);
  }

  if (control && options.funded !== false) session.accounts.funded = await mostBrl(client, session.customer.accounts);
  return session;
}

/** A refused login, and what to do about it: the scenario field or the option that gives the credentials. */
function refused(client: MockClient, spec: CustomerSpec, login: Credentials, answer: HttpAnswer): SetupError {
  const who = client.role.kind === 'target' ? `${client.baseUrl} (${client.role.flag})` : 'the mock';
  const what = `${who} refused the credentials of ${login.clientId} (${describeAnswer(answer)})`;
  if (spec === 'fresh') return new SetupError(what); // credentials the mock has just made
  const others = `or {clientId, clientSecret} of a client ${client.role.kind === 'target' ? 'it' : 'this mock'} knows`;
  let fix: string;
  if (spec === 'demo')
    fix = `customer: demo is demo-client of the demo data, not served there: set the scenario's customer: to fresh ${others}`;
  else if (client.role.kind === 'target') fix = `give its secret for ${login.clientId} with --compare-secret (or FOS_COMPARE_SECRET)`;
  else if (spec.clientSecret === LOCAL_SECRET)
    fix =
      `${LOCAL_SECRET} is the secret \`fos-mock fixtures pull\` gives the customers it writes: run the scenario on a mock serving ` +
      "those fixtures (fos-mock serve --fixtures <file>), or set the scenario's customer: to demo (demo-client, on a mock serving " +
      `the demo data), fresh (a customer of its own) ${others}`;
  else fix = `set the scenario's customer: to the clientId and clientSecret this mock knows, or to demo or fresh`;
  return new SetupError(`${what}: ${fix}`);
}

/** The account holding the most BRL (GET /_mock/accounts/{id}/balances), first one on a tie. */
async function mostBrl(client: MockClient, accountIds: string[]): Promise<string | undefined> {
  let best: { id: string; brl: number } | undefined;
  for (const id of accountIds) {
    const answer = await client.control('GET', `/accounts/${id}/balances`);
    expectStatus(answer, 200, `GET /_mock/accounts/${id}/balances`);
    const brl = Number((answer.body as { balances: Record<string, string> }).balances.BRL ?? 0);
    if (!best || brl > best.brl) best = { id, brl };
  }
  return best?.id;
}

/** The `sub` claim (the customer id) of a JWT, without checking it: the mock already did. */
function subject(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: string };
    return payload.sub ?? '';
  } catch {
    return '';
  }
}
