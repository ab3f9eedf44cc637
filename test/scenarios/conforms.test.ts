// `expect.conforms: true`: a call's answer must conform to spec/openapi.yaml. Checked against the
// mock as it is, and against the mock behind an app that rewrites its quote answers (the
// rewriting of scripts/contract/breaks/front.ts), as a broken target would answer.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { conformanceFailure, parseScenario, runScenario, ScenarioFileError, type Scenario } from '../../mock/scenarios';
import { isObject, rewrite } from '../../scripts/contract/breaks/front';
import { listeningMock, thrownBy, type ListeningMock } from './support';

/** What the front does to a quote's answer (POST /v1/quotes, GET /v1/quotes/{id}). */
let change: (quote: Record<string, unknown>) => void = () => undefined;

let plain: ListeningMock;
let broken: ListeningMock;
beforeAll(async () => {
  plain = await listeningMock();
  broken = await listeningMock(
    {},
    rewrite(({ req, body }) => {
      if (req.path.startsWith('/v1/quotes') && isObject(body)) change(body);
      return { body };
    }),
  );
});
afterAll(() => Promise.all([plain.stop(), broken.stop()]));

const quote = (conforms?: boolean) => ({
  call: 'POST /v1/quotes',
  body: { accountId: '{{accounts.funded}}', sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' },
  expect: { status: 201, ...(conforms === undefined ? {} : { conforms }) },
  save: { quoteId: 'body.id' },
});

const run = (scenario: Scenario, target: ListeningMock) => runScenario(scenario, { baseUrl: target.url });

describe('an answer that conforms to the document', () => {
  it('When the mock answers calls with conforms: true, then they pass, templated paths and query strings included', async () => {
    const result = await run(
      {
        name: 'conforming answers',
        steps: [
          quote(true),
          { call: 'GET /v1/quotes/{{quoteId}}', expect: { conforms: true } },
          { call: 'GET /v1/operations?limit=2', expect: { conforms: true } },
          { call: 'GET /v1/quotes/00000000-0000-4000-8000-000000000000', expect: { status: 404, conforms: true } },
        ],
      },
      plain,
    );
    expect(result.steps.map((s) => s.error ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(result.passed).toBe(true);
  });

  it('When the answer has a field the document does not know (drift), then the step still passes', async () => {
    change = (body) => (body.cashback = '0.10');
    const result = await run(
      { name: 'drift', steps: [quote(true), { call: 'GET /v1/quotes/{{quoteId}}', expect: { conforms: true } }] },
      broken,
    );
    expect(result.steps.map((s) => s.error ?? 'ok')).toEqual(['ok', 'ok']);
  });
});

describe('an answer that breaks the document', () => {
  it('When a quote lacks its required expiresAt, then conforms: true fails the step naming the field', async () => {
    change = (body) => delete body.expiresAt;
    const result = await run({ name: 'no expiresAt', steps: [quote(true)] }, broken);
    expect(result.passed).toBe(false);
    expect(result.steps[0]).toMatchObject({ ok: false, status: 201 });
    expect(result.steps[0]?.error).toBe(
      "conforms: the 201 answer breaks the document (createQuote)\n  body.expiresAt: must have required property 'expiresAt'",
    );
  });

  it('When conforms is false or absent, then the same answer passes', async () => {
    change = (body) => delete body.expiresAt;
    const result = await run({ name: 'unchecked', steps: [quote(false), quote()] }, broken);
    expect(result.steps.map((s) => s.error ?? 'ok')).toEqual(['ok', 'ok']);
  });

  it('When more than five fields break it, then the first five are named and the rest counted', async () => {
    const dropped = ['customer', 'accountId', 'sourceAmount', 'targetAmount', 'rate', 'status', 'expiresAt'];
    change = (body) => dropped.forEach((field) => delete body[field]);
    const result = await run({ name: 'seven missing', steps: [quote(true)] }, broken);
    const lines = result.steps[0]?.error?.split('\n') ?? [];
    expect(lines[0]).toBe('conforms: the 201 answer breaks the document (createQuote)');
    expect(lines.slice(1, 6).every((line) => /^ {2}body\.\w+: must have required property/.test(line))).toBe(true);
    expect(lines.slice(6)).toEqual(['  (and 2 more)']);
  });

  it('When the call is no operation of the document, then it fails with "no operation"', async () => {
    const result = await run(
      { name: 'unknown path', steps: [{ call: 'GET /v1/quotas?limit=1', expect: { status: 404, conforms: true } }] },
      plain,
    );
    expect(result.steps[0]?.error).toBe('conforms: no operation of the document is GET /v1/quotas');
    const method = await run(
      { name: 'unknown method', steps: [{ call: 'DELETE /v1/quotes', expect: { status: 405, conforms: true } }] },
      plain,
    );
    expect(method.steps[0]?.error).toBe('conforms: no operation of the document is DELETE /v1/quotes');
  });
});

describe('conformanceFailure, for a caller outside a scenario run', () => {
  it('gives the step’s message for a broken answer and undefined for a conforming one', () => {
    const headers = { 'x-request-id': '0d6c1b8e-2f4a-4c55-9a1e-5b7f0e3c2d10', 'content-type': 'application/json' };
    expect(conformanceFailure('GET', '/v1/operations/0d6c1b8e-2f4a-4c55-9a1e-5b7f0e3c2d10', { status: 200, headers, body: {} })).toMatch(
      /^conforms: the 200 answer breaks the document \(getOperation\)\n {2}body\.\w+: must have required property/,
    );
    const notFound = { code: 'RESOURCE_NOT_FOUND', message: 'No such operation.', requestId: headers['x-request-id'] };
    expect(conformanceFailure('get', '/v1/operations/x', { status: 404, headers, body: notFound })).toBeUndefined();
    expect(conformanceFailure('GET', '/nowhere', { status: 404, headers, body: undefined })).toBe(
      'conforms: no operation of the document is GET /nowhere',
    );
  });
});

describe('conforms where it has no meaning', () => {
  it('When a control, clock or webhooks step has conforms, then the loader refuses it, naming the step and the field', () => {
    const error = thrownBy(() =>
      parseScenario(`name: misplaced
steps:
  - control: POST /clock/freeze
    expect: {conforms: true}
  - clock: 5s
    expect: {conforms: false}
  - webhooks: idle
    expect: {status: 200, conforms: true}
`),
    );
    expect(error).toBeInstanceOf(ScenarioFileError);
    const why = '(it checks an answer of the service API against spec/openapi.yaml)';
    expect((error as ScenarioFileError).problems).toEqual([
      `step 1 (control POST /clock/freeze), field expect.conforms: conforms goes with call ${why}`,
      `step 2 (clock 5s), field expect.conforms: conforms goes with call ${why}`,
      `step 3 (webhooks idle), field expect.conforms: conforms goes with call ${why}`,
    ]);
  });

  it('When conforms is not a boolean, then the schema refuses it', () => {
    const error = thrownBy(() => parseScenario('name: x\nsteps:\n  - call: GET /v1/operations\n    expect: {conforms: "yes"}\n'));
    expect((error as ScenarioFileError).problems).toEqual([
      'step 1 (GET /v1/operations), field expect.conforms: must be of type boolean, got "yes"',
    ]);
  });
});
