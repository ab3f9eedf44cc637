// Scenario files are checked before anything runs: YAML syntax, spec/scenario.schema.json, and
// the names templates use. Every problem comes back at once, with the file, step and field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { checkScenario, loadScenarioFile, parseScenario, ScenarioFileError, UserError } from '../../mock/scenarios';
import { thrownBy as thrown } from './support';

const folder = mkdtempSync(join(tmpdir(), 'fos-scenarios-'));
function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

function problemsOf(run: () => unknown): { file: string; problems: string[]; message: string } {
  const error = thrown(run);
  expect(error).toBeInstanceOf(ScenarioFileError);
  const e = error as ScenarioFileError;
  return { file: e.file, problems: e.problems, message: e.message };
}

describe('a malformed scenario file', () => {
  it('When fields are wrong, then each problem names the file, the step and the field', () => {
    const path = file(
      'bad.yaml',
      `name: bad
customer: someone
steps:
  - call: POST /v1/quotes
    expect: {status: "201", stauts: 200}
  - clock: 5 minutes
  - call: FETCH /v1/quotes
  - call: GET /v1/operations
    clock: 5s
  - webhooks: idle
    body: {}
`,
    );
    const { file: named, problems, message } = problemsOf(() => loadScenarioFile(path));
    expect(named).toBe(path);
    expect(message.startsWith(`${path}: 7 problems:`)).toBe(true);
    expect(problems).toEqual(
      expect.arrayContaining([
        'field customer: must be fresh, demo, or {clientId, clientSecret}',
        'step 1 (POST /v1/quotes), field expect.stauts: is not a known field (known: status, body, headers, conforms)',
        'step 1 (POST /v1/quotes), field expect.status: must be of type integer, got "201"',
        'step 2 (clock 5 minutes), field clock: must be a duration such as 250ms, 30s, 5m, 1h30m or 2d, or a whole number of milliseconds',
        'step 3 (FETCH /v1/quotes), field call: must be METHOD /path, e.g. POST /v1/quotes (GET, POST, PUT, PATCH or DELETE)',
        'step 4 (GET /v1/operations): must have exactly one of call, control, clock or webhooks (or only expect-events)',
        'step 5 (webhooks idle): body goes with call or control',
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it('When required parts are missing, then it says which', () => {
    expect(problemsOf(() => parseScenario('description: no name, no steps\n')).problems).toEqual([
      'field name: is required',
      'field steps: is required',
    ]);
    expect(problemsOf(() => parseScenario('name: x\nsteps: []\n')).problems).toEqual(['field steps: must NOT have fewer than 1 items']);
  });

  it('When a step is not a mapping, then it says so rather than listing every key', () => {
    expect(problemsOf(() => parseScenario('name: x\nsteps:\n  - POST /v1/quotes\n')).problems).toEqual([
      'step 1: must be a mapping (key: value), got "POST /v1/quotes"',
    ]);
  });

  it('When receivers and event expectations are wrong, then it names the receiver or the event', () => {
    const { problems } = problemsOf(() =>
      parseScenario(`name: x
receivers:
  hooks: {script: [500, later], fallback: 700}
steps:
  - expect-events: {receiver: hooks, types: [OPERATION_DONE]}
  - expect-events: {receiver: hooks}
  - call: GET /x
    save: {customer: body.id, ok: id}
`),
    );
    expect(problems).toEqual([
      'receiver hooks, field script[1]: must be an HTTP status (100-599), hang or reset',
      'receiver hooks, field fallback: must be an HTTP status (100-599), hang or reset',
      expect.stringMatching(
        /^step 1, field expect-events\.types\[0\]: must be one of ACCOUNT_CREATED, .*OPERATION_ACTION_REQUIRED, got "OPERATION_DONE"$/,
      ),
      'step 2, field expect-events: needs exactly one of types (the exact ordered list) or contains',
      'step 3 (GET /x), field save: the name "customer" is not allowed: ' +
        'names are letters, digits and _ (not starting with a digit), and not customer, accounts or receivers (built-ins)',
      'step 3 (GET /x), field save.ok: must be a path into the answer: status, headers.<name> or body.<path> (e.g. body.data[0].id)',
    ]);
  });

  it('When a template names nothing saved before, or an unknown built-in or receiver, then it is refused before the run', () => {
    const { problems } = problemsOf(() =>
      parseScenario(`name: x
receivers:
  hooks: {}
steps:
  - call: POST /v1/quotes
    body: {accountId: "{{accounts.rich}}"}
    save: {quoteId: body.id}
  - call: POST /v1/operations/deposits
    body: {quoteId: "{{quoteid}}", list: ["{{customer.accounts[0]}}", "{{receivers.hoooks.url}}"]}
  - call: GET /v1/operations/{{op}}
    save: {op: body.id}
  - expect-events: {receiver: other, types: []}
  - call: GET /_mock/clock
`),
    );
    expect(problems).toEqual([
      'step 1 (POST /v1/quotes), field body.accountId: {{accounts.rich}} is not a built-in (accounts.funded, accounts.editable)',
      'step 2 (POST /v1/operations/deposits), field body.quoteId: ' +
        '{{quoteid}} is not a built-in and no earlier step saves "quoteid" (saved so far: quoteId)',
      'step 2 (POST /v1/operations/deposits), field body.list[1]: {{receivers.hoooks.url}} names no declared receiver (declared: hooks)',
      'step 3 (GET /v1/operations/{{op}}), field call: {{op}} is not a built-in and no earlier step saves "op" (saved so far: quoteId)',
      'step 4, field expect-events.receiver: no receiver "other" is declared (declared: hooks)',
      'step 5 (GET /_mock/clock), field call: /_mock paths are control calls: write control: GET /clock',
    ]);
  });

  it('When a call names /_mockery or /_mock with a query, then only the /_mock one is refused as a control call', () => {
    const { problems } = problemsOf(() =>
      parseScenario(`name: x
steps:
  - call: GET /_mockery
  - call: GET /_mock?limit=1
`),
    );
    expect(problems).toEqual(['step 2 (GET /_mock?limit=1), field call: /_mock paths are control calls: write control: GET ?limit=1']);
  });

  it('When the YAML does not parse, then it gives the line and column', () => {
    const path = file('broken.yaml', 'name: x\nsteps:\n  - call: GET /x\n   expect: {status: 200\n');
    const { problems } = problemsOf(() => loadScenarioFile(path));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^not valid YAML: .+ \(line \d+, column \d+\)$/);
  });

  it('When the file is empty or missing, then it says so', () => {
    expect(problemsOf(() => loadScenarioFile(file('empty.yaml', '# nothing\n'))).problems).toEqual(['the file is empty']);
    const missing = thrown(() => loadScenarioFile(join(folder, 'nope.yaml')));
    expect(missing).toBeInstanceOf(UserError);
    expect((missing as Error).message).toBe(`cannot read ${join(folder, 'nope.yaml')}: no such file`);
  });

  it('accepts a scenario given as an object, with the same checks', () => {
    expect(
      checkScenario({
        name: 'x',
        customer: 'demo',
        steps: [{ call: 'GET /api/accounts', save: { first: 'body.data[0].id' } }, { call: 'GET /api/accounts/{{first}}' }],
      }),
    ).toMatchObject({ name: 'x' });
    expect(problemsOf(() => checkScenario({ name: 'x', steps: [{ clock: true }] })).problems).toEqual([
      'step 1, field clock: must be a duration such as 250ms, 30s, 5m, 1h30m or 2d, or a whole number of milliseconds',
    ]);
  });
});
