// A failed run written as a scenario that `fos-mock scenario run` replays: its steps as sent, each
// expecting what the oracle (a fos-mock without the target's faults) answers, and the failing step
// expecting what the check requires. The file is then run on both: it must pass on the oracle and
// fail on the target, and the report says whether it does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runScenario } from '../scenarios/runner';
import type { StepObservation } from '../scenarios/step';
import type { Scenario, Step } from '../scenarios/types';
import { RECEIVER } from './run-context';
import type { FailedRun } from './search';

export interface WrittenScenario {
  file: string;
  steps: number;
  /** The replay's outcome on each side: the oracle must pass, the target must fail. */
  /** `passed`, or where it failed. */
  onOracle: string;
  /** `not replayed` on a target that is not a fos-mock: the scenario's fresh customer needs the control API. */
  onTarget: 'failed' | 'passed' | 'not replayed';
}

const errorCode = (body: unknown) => {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The scenario of a failed run, its expectations filled from the oracle's answers. */
async function expectations(failed: FailedRun, oracleUrl: string, base: Scenario): Promise<Scenario> {
  const observations = new Map<number, StepObservation>();
  await runScenario(base, { baseUrl: oracleUrl, keepGoing: true, onObservation: (i, o) => observations.set(i, o) });
  const at = failed.failure.step;
  const steps = base.steps.map((step, i): Step => {
    const answer = observations.get(i + 1)?.answer;
    if (!answer || step.webhooks !== undefined || step.clock !== undefined) return step;
    const expect: NonNullable<Step['expect']> = { status: answer.status };
    const code = errorCode(answer.body);
    if (code) expect.body = { code };
    if (i + 1 === at) Object.assign(expect, failingStepExpectation(failed.failure.check, step, answer.body));
    return { ...step, expect };
  });
  return { ...base, steps };
}

type Expect = NonNullable<Step['expect']>;
type Body = Record<string, unknown> | undefined;

/**
 * What the failing step must answer, as the oracle answered it, in the terms of the check that
 * failed: only what the check is about, and nothing that differs between two customers (ids, times).
 */
function failingStepExpectation(check: string, step: Step, answer: unknown): Partial<Expect> {
  const body = (answer ?? undefined) as Body;
  const pick = (value: unknown, keys: string[]) =>
    Object.fromEntries(keys.filter((k) => (value as Body)?.[k] !== undefined).map((k) => [k, (value as Body)?.[k]]));
  if (check.startsWith('document.')) return { conforms: true };
  if (check === 'money.balances') return { body: { balances: body?.balances } };
  if (check === 'token.lifetime') return { body: { expiresIn: body?.expiresIn } };
  if (check === 'idempotency.replay') return { headers: { 'x-idempotent-replayed': 'true' } };
  if (check === 'quote.amounts') return { body: { rate: body?.rate, targetAmount: pick(body?.targetAmount, ['value', 'asset']) } };
  if (check === 'lifecycle.transition' && step.control === undefined)
    return { body: { currentState: pick(body?.currentState, ['status']) } };
  if (check === 'operation.record') {
    const state = body?.currentState as Body;
    const quote = body?.quote as Body | null | undefined;
    return {
      body: {
        currentState: { status: state?.status, ...(state?.reason ? { reason: pick(state.reason, ['code']) } : {}) },
        // Each transaction by its rail and direction (its id and time are the target's own).
        ...(Array.isArray(body?.transactions) ? { transactions: body.transactions.map((t) => pick(t, ['rail', 'direction'])) } : {}),
        ...(quote === undefined ? {} : { quote: quote === null ? null : pick(quote, ['rate']) }),
      },
    };
  }
  if (check === 'pages.complete') {
    const meta = body?.meta as Body;
    const data = Array.isArray(body?.data) ? body.data : undefined;
    return {
      body: {
        // The page's size and its ends; each record by its status where it has one (a filtered list).
        meta: {
          total: meta?.total,
          ...(meta?.previousCursor === null ? { previousCursor: null } : {}),
          ...(meta?.nextCursor === null ? { nextCursor: null } : {}),
        },
        ...(data ? { data: data.map((item) => pick(item, ['status'])) } : {}),
      },
    };
  }
  return {};
}

/** The replay of a key: the first call saves its body, the replay expects it whole. */
function replayExpectation(failed: FailedRun, steps: Step[]): Step[] {
  if (failed.failure.check !== 'idempotency.replay') return steps;
  const replay = steps[failed.failure.step - 1];
  const key = replay?.headers?.['x-idempotency-key'];
  const first = steps.findIndex((s) => s.headers?.['x-idempotency-key'] === key);
  if (!replay || first < 0 || first === failed.failure.step - 1) return steps;
  return steps.map((s, i) => {
    if (i === first) return { ...s, save: { ...s.save, firstAnswer: 'body' } };
    if (i === failed.failure.step - 1) return { ...s, expect: { ...s.expect, body: '{{firstAnswer}}' } };
    return s;
  });
}

export async function writeScenario(
  failed: FailedRun,
  context: { outDir: string; oracleUrl: string; targetUrl: string; targetIsMock: boolean; seed: number; command: string },
): Promise<WrittenScenario> {
  const name = `explore seed ${context.seed}: ${failed.failure.check}`;
  const steps = failed.steps.slice(0, Math.max(failed.failure.step, 1));
  if (failed.failure.check === 'lifecycle.events') steps.push({ 'expect-events': { receiver: RECEIVER, contains: missingEvents(failed) } });
  const base: Scenario = {
    name,
    description: `${failed.failure.message}\nFound by: ${context.command}`,
    customer: 'fresh',
    clock: 'own',
    ...(failed.receiver ? { receivers: { [RECEIVER]: null } } : {}),
    steps,
  };
  base.steps = pruneSaves(base.steps);
  const scenario = await expectations(failed, context.oracleUrl, base);
  scenario.steps = replayExpectation(failed, scenario.steps);
  mkdirSync(context.outDir, { recursive: true });
  const file = join(context.outDir, `explore-${context.seed}-${failed.failure.check.replace(/\./g, '-')}.yaml`);
  const header = [
    `# Written by fos-mock explore: ${failed.failure.message.split('\n')[0]}`,
    `# Reproduce the search: ${context.command}`,
    context.targetIsMock
      ? `# Replay: fos-mock scenario run ${file} --url ${context.targetUrl}`
      : `# Replay on ${context.targetUrl}: set customer: to its clientId and clientSecret, then ` +
        `fos-mock scenario run ${file} --url ${context.targetUrl}`,
    '',
  ].join('\n');
  writeFileSync(file, header + yaml.dump(scenario, { lineWidth: 160, noRefs: true }));
  const onOracle = await runScenario(file, { baseUrl: context.oracleUrl });
  const onTarget = context.targetIsMock ? await runScenario(file, { baseUrl: context.targetUrl }) : undefined;
  const oracleError = onOracle.steps.find((s) => !s.ok);
  return {
    file,
    steps: scenario.steps.length,
    onOracle: onOracle.passed ? 'passed' : `failed at step ${oracleError?.index}: ${oracleError?.error ?? ''}`,
    onTarget: onTarget === undefined ? 'not replayed' : onTarget.passed ? 'passed' : 'failed',
  };
}

/** Saves no later step uses are dropped: the failing step's own may name a record only the target made. */
function pruneSaves(steps: Step[]): Step[] {
  return steps.map((step, i) => {
    if (!step.save) return step;
    const later = JSON.stringify(steps.slice(i + 1));
    const used = Object.entries(step.save).filter(([name]) => later.includes(`{{${name}}}`) || later.includes(`{{${name}.`));
    const { save: _dropped, ...rest } = step;
    return used.length > 0 ? { ...rest, save: Object.fromEntries(used) } : rest;
  });
}

function missingEvents(failed: FailedRun): string[] {
  const list = /missing \[([^\]]*)\]/.exec(failed.failure.message)?.[1] ?? '';
  return list.split(', ').filter(Boolean);
}
