// `scenario run --compare-with`: a mock compared with a second mock behind a proxy that alters its
// answers, as a sandbox that behaves differently would. Each alteration is named in the report;
// an unaltered target shows none; the allow-list accepts what it lists; reports are written.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { program } from '../../mock/main';
import { alteringProxy, type AlteringProxy, type Exchange } from '../support/altering-proxy';
import { captured, listeningMock, type ListeningMock } from '../scenarios/support';

const folder = mkdtempSync(join(tmpdir(), 'fos-fidelity-'));
const scenarioFile = join(folder, 'deposit.yaml');
writeFileSync(
  scenarioFile,
  `name: a deposit, settled, and its quote used twice
steps:
  - call: POST /v1/quotes
    body: {accountId: "{{accounts.funded}}", sourceAsset: BRL, targetAsset: BRL, sourceAmount: "150.00"}
    expect: {status: 201}
    save: {quoteId: body.id}
  - call: POST /v1/operations/deposits
    body: {accountId: "{{accounts.funded}}", quoteId: "{{quoteId}}", fundingInstruction: {rail: PIX}}
    expect: {status: 201}
    save: {op: body.id}
  - name: the quote used again
    call: POST /v1/operations/deposits
    body: {accountId: "{{accounts.funded}}", quoteId: "{{quoteId}}", fundingInstruction: {rail: PIX}}
    expect: {status: 422}
  - control: POST /operations/{{op}}/settle
  - call: GET /v1/operations/{{op}}
    expect: {status: 200}
`,
);

/** The sandbox's ways: a renamed error code, the rate as a number, a settled deposit that reads FAILED. */
function sandboxWays({ method, path, body }: Exchange): { body: unknown } | undefined {
  const record = body as Record<string, unknown> & { code?: string; currentState?: { status: string } };
  if (record?.code === 'QUOTE_ALREADY_CONSUMED') return { body: { ...record, code: 'QUOTE_USED' } };
  if (method === 'POST' && path === '/v1/quotes') return { body: { ...record, rate: Number(record.rate) } };
  if (method === 'GET' && path.startsWith('/v1/operations/') && record?.currentState?.status === 'COMPLETED')
    return { body: { ...record, currentState: { ...record.currentState, status: 'FAILED' } } };
  return undefined;
}

let mock: ListeningMock;
let sandbox: ListeningMock;
let altered: AlteringProxy;
let unaltered: AlteringProxy;

const fosMock = (...args: string[]) => captured(() => program().parseAsync(args, { from: 'user' }));

beforeAll(async () => {
  delete process.env.FOS_MOCK_URL;
  mock = await listeningMock();
  sandbox = await listeningMock();
  altered = await alteringProxy(sandbox.url, sandboxWays);
  unaltered = await alteringProxy(sandbox.url);
});
afterAll(async () => {
  await Promise.all([altered.close(), unaltered.close()]);
  await Promise.all([mock.stop(), sandbox.stop()]);
});

describe('scenario run --compare-with: the fidelity report', () => {
  it('When the second target renames a code, retypes a field and settles differently, then each is named; exit code 1', async () => {
    const md = join(folder, 'fidelity.md');
    const junit = join(folder, 'fidelity.xml');
    const run = await fosMock(
      'scenario',
      'run',
      scenarioFile,
      '--url',
      mock.url,
      '--compare-with',
      altered.url,
      '--report-md',
      md,
      '--junit',
      junit,
    );
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('1/5 POST /v1/quotes type body.rate: string (A) vs number (B)');
    expect(run.stdout).toContain('3/5 POST /v1/operations/deposits code body.code: QUOTE_ALREADY_CONSUMED (A) vs QUOTE_USED (B)');
    expect(run.stdout).toContain('5/5 GET /v1/operations/{{op}} state body.currentState.status: COMPLETED (A) vs FAILED (B)');
    expect(run.stdout).toContain('✗ a deposit, settled, and its quote used twice: 3 differences between A and B');

    const report = readFileSync(md, 'utf8');
    expect(report).toContain('| 1 | `POST /v1/quotes` | type | `body.rate` | string | number | no |');
    expect(report).toContain(
      '| 3 (the quote used again) | `POST /v1/operations/deposits` | code | `body.code` | QUOTE_ALREADY_CONSUMED | QUOTE_USED | no |',
    );
    expect(report).toContain('| 5 | `GET /v1/operations/{{op}}` | state | `body.currentState.status` | COMPLETED | FAILED | no |');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuites name="fos-mock fidelity" tests="5" failures="3">');
    expect(xml).toContain('<failure message="code body.code: QUOTE_ALREADY_CONSUMED (A) vs QUOTE_USED (B)" type="code">');
  });

  it('When the second target answers as the first, then the report shows no difference and the exit code is 0', async () => {
    const md = join(folder, 'same.md');
    const run = await fosMock('scenario', 'run', scenarioFile, '--url', mock.url, '--compare-with', unaltered.url, '--report-md', md);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('✓ a deposit, settled, and its quote used twice: no difference between A and B in 5 steps');
    expect(readFileSync(md, 'utf8')).toContain('No difference.');
  });

  it('When every difference is on the allow-list, then they are shown as allowed and the exit code is 0', async () => {
    const allow = join(folder, 'allow.yaml');
    writeFileSync(
      allow,
      [
        '- {step: 1, kind: type, path: body.rate, reason: the sandbox sends the rate as a number}',
        '- {step: the quote used again, kind: code}',
        '- {kind: state, path: "body.currentState.*"}',
      ].join('\n'),
    );
    const md = join(folder, 'allowed.md');
    const run = await fosMock(
      'scenario',
      'run',
      scenarioFile,
      '--url',
      mock.url,
      '--compare-with',
      altered.url,
      '--allow',
      allow,
      '--report-md',
      md,
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('no difference beyond 3 allowed');
    expect(readFileSync(md, 'utf8')).toContain('| string | number | yes: the sandbox sends the rate as a number |');
  });

  it('When an allow-list entry names neither a kind nor a path, then it is refused, naming the entry', async () => {
    const allow = join(folder, 'bad-allow.yaml');
    writeFileSync(allow, '- {step: 1}\n');
    const run = await fosMock('scenario', 'run', scenarioFile, '--url', mock.url, '--compare-with', altered.url, '--allow', allow);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`fos-mock: ${allow}: entry 1: give a kind or a path (or both)\n`);
  });

  it('When --report-md is given without --compare-with, then it is refused', async () => {
    const run = await fosMock('scenario', 'run', scenarioFile, '--url', mock.url, '--report-md', join(folder, 'x.md'));
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe('fos-mock: --allow, --report-md and --junit go with --compare-with <base>\n');
  });
});
