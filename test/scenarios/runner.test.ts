// The runner against an in-process mock: what a failing step says, where a run stops, the
// built-ins it finds, receivers' scripts, and the set-up errors a user can make.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { formatStep, parseScenario, progressPrinter, runScenario, type Scenario, type StepProgress } from '../../mock/scenarios';
import { demo } from '../http/fixture-ids';
import { listeningMock, type ListeningMock } from './support';
import { closedPort } from '../../mock/receiver/closed-port';

const d = demo();
let target: ListeningMock;
beforeAll(async () => {
  // The default delivery time-out (10 s): no receiver that answers is cut short on a busy machine.
  target = await listeningMock();
});
afterAll(() => target.stop());

const quote = {
  call: 'POST /v1/quotes',
  body: { accountId: '{{accounts.funded}}', sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' },
  expect: { status: 201 },
  save: { quoteId: 'body.id' },
};
const deposit = {
  call: 'POST /v1/operations/deposits',
  body: { accountId: '{{accounts.funded}}', quoteId: '{{quoteId}}', fundingInstruction: { rail: 'PIX' } },
  expect: { status: 201 },
  save: { op: 'body.id' },
};

describe('a scenario that is wrong', () => {
  it('When a step expects what did not happen, then the run stops there and says what differed, with the path', async () => {
    const progress: StepProgress[] = [];
    const wrong: Scenario = {
      name: 'settles without moving the clock (wrong)',
      steps: [
        quote,
        deposit,
        { call: 'GET /v1/operations/{{op}}', expect: { status: 200, body: { currentState: { status: 'COMPLETED' } } } },
        { clock: '5s' },
        { call: 'GET /v1/operations/{{op}}' },
      ],
    };
    const result = await runScenario(wrong, { baseUrl: target.url, onStep: (p) => progress.push(p) });
    expect(result).toMatchObject({ name: 'settles without moving the clock (wrong)', passed: false, total: 5 });
    expect(result.steps.map((s) => s.ok)).toEqual([true, true, false]);
    expect(result.steps[2]).toMatchObject({
      index: 3,
      title: 'GET /v1/operations/{{op}}',
      ok: false,
      status: 200,
      error: 'body.currentState.status: expected "COMPLETED", got "REQUESTED"',
    });
    expect(progress.map((p) => `${p.index}/${p.total} ${p.state}`)).toEqual([
      '1/5 running',
      '1/5 passed',
      '2/5 running',
      '2/5 passed',
      '3/5 running',
      '3/5 failed',
    ]);
  });

  it('When the status differs, then it gives the Error body code and message', async () => {
    const result = await runScenario(
      { name: 'expired quote used (wrong)', steps: [quote, { clock: '31s' }, deposit] },
      { baseUrl: target.url },
    );
    expect(result.steps[2]).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringMatching(/^status: expected 201, got 422 QUOTE_EXPIRED: /),
    });
  });

  it('When no expected status is given, then anything but a 2xx fails the step', async () => {
    const result = await runScenario(
      { name: 'unknown operation', steps: [{ call: 'GET /v1/operations/00000000-0000-4000-8000-000000000000' }] },
      { baseUrl: target.url },
    );
    expect(result.steps[0]?.error).toMatch(/^status: expected a 2xx, got 404 RESOURCE_NOT_FOUND: /);
  });

  it('When a verification step does not hold, then it adds the verification’s message to what differed', async () => {
    const request = {
      method: 'POST',
      path: '/v1/quotes',
      customerId: '{{customer.id}}',
      body: [{ path: '$.sourceAmount', equals: '99.00' }],
    };
    const result = await runScenario(
      {
        name: 'verify (wrong)',
        clock: 'own',
        steps: [quote, { control: 'POST /journal/verify', body: { request, count: { exactly: 1 } }, expect: { body: { ok: true } } }],
      },
      { baseUrl: target.url },
    );
    expect(result.steps[1]?.error).toMatch(/^body\.ok: expected true, got false - Expected exactly 1 request .*found 0/);
  });

  it('When a saved path is not in the answer, then it says which', async () => {
    const result = await runScenario({ name: 'save', steps: [{ ...quote, save: { quoteId: 'body.quote.id' } }] }, { baseUrl: target.url });
    expect(result.steps[0]?.error).toBe('save quoteId: body.quote.id is not in the answer');
  });

  it('When a receiver got other events, then it lists both', async () => {
    const result = await runScenario(
      {
        name: 'events',
        receivers: { hooks: null },
        steps: [
          { call: 'POST /api/subscriptions', body: { url: '{{receivers.hooks.url}}', includeAll: true }, expect: { status: 201 } },
          quote,
          deposit,
          { 'expect-events': { receiver: 'hooks', contains: ['OPERATION_REQUESTED'] } },
          { 'expect-events': { receiver: 'hooks', types: ['OPERATION_REQUESTED', 'OPERATION_COMPLETED'] } },
        ],
      },
      { baseUrl: target.url },
    );
    expect(result.steps.map((s) => s.ok)).toEqual([true, true, true, true, false]);
    expect(result.steps[4]?.error).toBe(
      'receiver hooks: expected events [OPERATION_REQUESTED, OPERATION_COMPLETED], got [OPERATION_REQUESTED]',
    );
  });
});

describe('built-ins and the customer', () => {
  it('a fresh customer: accounts[0] is the editable copy, accounts[1] the funded one, each with new ids', async () => {
    const result = await runScenario(
      {
        name: 'fresh built-ins',
        steps: [
          {
            call: 'GET /api/accounts/{{customer.accounts[0]}}',
            expect: {
              body: { id: '{{accounts.editable}}', customer: { id: '{{customer.id}}' }, currentState: { status: 'ACTION_REQUIRED' } },
            },
          },
          {
            control: 'GET /accounts/{{customer.accounts[1]}}/balances',
            expect: { body: { accountId: '{{accounts.funded}}', balances: { BRL: '25000.00', USDT: '1500.000000' } } },
          },
          { control: 'GET /accounts/{{customer.accounts[2]}}/balances', expect: { body: { balances: { BRL: '5000.00' } } } },
          { call: 'GET /v1/beneficiaries/{{customer.beneficiaries[1]}}', expect: { status: 200 } },
          {
            call: `GET /api/accounts/${d.funded(d.c1.id).id}`,
            name: 'demo-client’s account is not this customer’s',
            expect: { status: 404 },
          },
        ],
      },
      { baseUrl: target.url },
    );
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
  });

  it('customer: demo is demo-client, with its fixture ids', async () => {
    const result = await runScenario(
      {
        name: 'demo built-ins',
        customer: 'demo',
        steps: [
          { call: 'GET /api/accounts?limit=1', expect: { body: { data: [{ customer: { id: d.c1.id } }] } } },
          {
            call: 'GET /api/accounts/{{accounts.funded}}',
            expect: { body: { id: d.funded(d.c1.id).id } },
          },
          { call: 'GET /api/accounts/{{accounts.editable}}', expect: { body: { id: d.editable(d.c1.id).id } } },
          {
            call: 'GET /v1/beneficiaries/{{customer.beneficiaries[0]}}',
            expect: { body: { id: d.beneficiaryOf(d.c1.id).id, customerId: '{{customer.id}}' } },
          },
        ],
      },
      { baseUrl: target.url },
    );
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
  });

  it('reset: true starts from the fixtures: what an earlier run did is gone', async () => {
    const before = await runScenario(
      {
        name: 'a demo deposit',
        customer: 'demo',
        steps: [quote, deposit, { call: 'GET /v1/operations', expect: { body: { meta: { total: 1 } } } }],
      },
      { baseUrl: target.url },
    );
    expect(before.passed).toBe(true);
    const after = await runScenario(
      { name: 'after a reset', customer: 'demo', reset: true, steps: [{ call: 'GET /v1/operations', expect: { body: { data: [] } } }] },
      { baseUrl: target.url },
    );
    expect(after.steps.filter((s) => !s.ok)).toEqual([]);
  });

  it('adds a fresh idempotency key unless given one, the bearer token unless auth: false', async () => {
    const key = '0f7e1a52-6c3b-4d8e-9f2a-1b3c5d7e9f01';
    const keyed = { ...quote, headers: { 'X-Idempotency-Key': key } };
    const result = await runScenario(
      {
        name: 'headers',
        steps: [
          keyed,
          { ...keyed, expect: { status: 201, headers: { 'X-Idempotent-Replayed': 'true' }, body: { id: '{{quoteId}}' } } },
          quote,
          { call: 'GET /api/accounts', auth: false, expect: { status: 401, body: { code: 'UNAUTHORIZED' } } },
        ],
      },
      { baseUrl: target.url },
    );
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
  });

  it('a header given as false is not sent: no key on a POST is 400 IDEMPOTENCY_KEY_REQUIRED, no bearer is 401', async () => {
    // As a file has it: the schema takes false, and the runner adds neither its key nor its token.
    const scenario = parseScenario(`name: headers left out
steps:
  - call: POST /v1/quotes
    headers: { x-idempotency-key: false }
    body: { accountId: '{{accounts.funded}}', sourceAsset: BRL, targetAsset: BRL, sourceAmount: '10.00' }
    expect: { status: 400, body: { code: IDEMPOTENCY_KEY_REQUIRED } }
  - call: GET /api/accounts
    headers: { authorization: false }
    expect: { status: 401, body: { code: UNAUTHORIZED } }
  - call: GET /api/accounts
    headers: { Authorization: false }
    expect: { status: 401, body: { code: UNAUTHORIZED } }
`);
    const result = await runScenario(scenario, { baseUrl: target.url });
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
    expect(result.steps).toHaveLength(3);
  });

  it('receivers follow their script: a reset connection and a hang are FAILED with status 0, then the fallback answers', async () => {
    // A mock of its own whose delivery time-out ends the hang in 2 s of real time: short enough for
    // a test, and far beyond what the receiver's 204 takes, however busy the machine.
    const hanging = await listeningMock({ webhookTimeoutMs: 2_000 });
    const result = await runScenario(
      {
        name: 'reset and hang',
        receivers: { bad: { script: ['reset', 'hang'], fallback: 204 } },
        steps: [
          {
            call: 'POST /api/subscriptions',
            body: { url: '{{receivers.bad.url}}', allowRetry: true, resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] },
            expect: { status: 201 },
            save: { sub: 'body.id' },
          },
          quote,
          deposit,
          { webhooks: 'idle' },
          { clock: '5s' },
          { clock: '30s' },
          {
            call: 'GET /v1/subscriptions/{{sub}}/executionLogs?sortOrder=ASCENDING',
            expect: {
              body: {
                data: [
                  { status: 'FAILED', httpStatus: 0 },
                  { status: 'FAILED', httpStatus: 0 },
                  { status: 'SUCCESS', httpStatus: 204 },
                ],
              },
            },
          },
        ],
      },
      { baseUrl: hanging.url },
    ).finally(() => hanging.stop());
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
  });
});

describe('set-up errors are the user’s to fix, and say so', () => {
  it('When nothing listens at the URL, then it asks whether the mock is running', async () => {
    const port = await closedPort();
    await expect(runScenario({ name: 'x', steps: [{ clock: '1s' }] }, { baseUrl: `http://127.0.0.1:${port}` })).rejects.toMatchObject({
      name: 'MockTargetError',
      message: `cannot reach the mock at http://127.0.0.1:${port} (ECONNREFUSED): is \`npm start\` running? (or pass --url, or set FOS_MOCK_URL)`,
    });
  });

  it('When the control API is off, then a scenario that needs it is refused; one that does not runs', async () => {
    const off = await listeningMock({ controlApi: false });
    try {
      await expect(runScenario({ name: 'x', steps: [{ clock: '1s' }] }, { baseUrl: off.url })).rejects.toThrow(
        `the control API is off at ${off.url}`,
      );
      const plain = await runScenario(
        {
          name: 'public only',
          customer: 'demo',
          steps: [{ call: 'GET /api/accounts', expect: { status: 200 } }, { call: 'GET /api/accounts/{{accounts.funded}}' }],
        },
        { baseUrl: off.url },
      );
      expect(plain.steps.map((s) => s.ok)).toEqual([true, false]);
      expect(plain.steps[1]?.error).toMatch(/^\{\{accounts\.funded\}\} has no value/);
    } finally {
      await off.stop();
    }
  });

  it('When the credentials are wrong, then it says the mock refused them', async () => {
    await expect(
      runScenario(
        { name: 'x', customer: { clientId: 'demo-client', clientSecret: 'nope' }, steps: [{ call: 'GET /api/accounts' }] },
        { baseUrl: target.url },
      ),
    ).rejects.toThrow('the mock refused the credentials of demo-client (401 INVALID_CLIENT: Unknown client or wrong client secret.)');
  });

  it('When the URL is not one, then it says so', async () => {
    await expect(runScenario({ name: 'x', steps: [{ clock: '1s' }] }, { baseUrl: 'localhost:4010' })).rejects.toThrow(
      'is not an http(s) URL',
    );
  });
});

describe('the reporter', () => {
  it('prints one line per step, and what differed under a failed one', () => {
    expect(formatStep({ index: 3, total: 9, title: 'POST /v1/quotes', state: 'passed', status: 201, ms: 12 })).toBe(
      '  ✓ 3/9 POST /v1/quotes 201 (12 ms)',
    );
    expect(formatStep({ index: 4, total: 9, title: 'clock 5m', name: 'settle', state: 'failed', status: 400, ms: 2, error: 'a\nb' })).toBe(
      '  ✗ 4/9 clock 5m 400 (2 ms) - settle\n      a\n      b',
    );
  });

  it('shows the step under way on a terminal only, and replaces it when the step ends', () => {
    const written: string[] = [];
    const tty = progressPrinter({ isTTY: true, write: (t: string) => written.push(t) });
    tty({ index: 1, total: 2, title: 'clock 1h', state: 'running' });
    tty({ index: 1, total: 2, title: 'clock 1h', state: 'passed', status: 200, ms: 3 });
    expect(written).toEqual(['  … 1/2 clock 1h', '\r\x1b[2K  ✓ 1/2 clock 1h 200 (3 ms)\n']);
    const piped: string[] = [];
    const pipe = progressPrinter({ write: (t: string) => piped.push(t) });
    pipe({ index: 1, total: 2, title: 'clock 1h', state: 'running' });
    pipe({ index: 1, total: 2, title: 'clock 1h', state: 'passed', status: 200, ms: 3 });
    expect(piped).toEqual(['  ✓ 1/2 clock 1h 200 (3 ms)\n']);
  });
});
