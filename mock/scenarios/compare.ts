// `scenario run --compare-with`: one scenario run against two targets (every step, even after one
// fails), and where their answers differ, step by step: the status, the error code, which fields
// there are and their JSON types, the states records are in, the events a receiver got, and whether
// the step's own expectations held. Ids, timestamps, amounts and timing are not compared: two
// targets hold different records.
import type { TargetRole } from './errors';
import { runScenario, stepTitle } from './runner';
import { jsonType, shapeOf, typeText, underEmptyArray } from './shapes';
import type { StepObservation } from './step';
import type { Scenario, ScenarioResult, StepResult } from './types';

export type DifferenceKind = 'status' | 'code' | 'field' | 'type' | 'state' | 'events' | 'outcome';

export interface Difference {
  /** 1-based step number. */
  step: number;
  title: string;
  name?: string;
  kind: DifferenceKind;
  /** Where in the answer (`body.currentState.status`, `status`, `events`). */
  path: string;
  /** What the first target (--url) answered, and the second (--compare-with). */
  a: string;
  b: string;
  /** Set by the allow-list: the reason given there, or true. */
  allowed?: string | true;
}

export interface Run {
  result: ScenarioResult;
  observations: Map<number, StepObservation>;
}

export interface Comparison {
  name: string;
  file?: string;
  urls: { a: string; b: string };
  total: number;
  runs: { a: ScenarioResult; b: ScenarioResult };
  differences: Difference[];
}

async function observedRun(scenario: string | Scenario, baseUrl: string, role?: TargetRole): Promise<Run> {
  const observations = new Map<number, StepObservation>();
  const result = await runScenario(scenario, { baseUrl, role, keepGoing: true, onObservation: (index, o) => observations.set(index, o) });
  return { result, observations };
}

/**
 * Runs the scenario on `a`, then on `b`, and lists where they differ. `secretB`: the client secret
 * B knows the scenario's customer by (a sandbox's differs from the mock's `fos-mock-local`).
 */
export async function compareTargets(scenario: Scenario, urls: { a: string; b: string }, secretB?: string): Promise<Comparison> {
  const a = await observedRun(scenario, urls.a);
  const { customer } = scenario;
  const onB = secretB && typeof customer === 'object' ? { ...scenario, customer: { ...customer, clientSecret: secretB } } : scenario;
  const b = await observedRun(onB, urls.b, { kind: 'target', flag: '--compare-with' });
  const differences: Difference[] = [];
  scenario.steps.forEach((step, i) => {
    const index = i + 1;
    const at = { step: index, title: stepTitle(step), ...(step.name ? { name: step.name } : {}) };
    const found = stepDifferences(a.observations.get(index) ?? {}, b.observations.get(index) ?? {});
    const outcome = outcomeDifference(a.result.steps[i], b.result.steps[i]);
    // A failed expectation is named only when nothing more precise explains it.
    if (found.length === 0 && outcome) found.push(outcome);
    differences.push(...found.map((d) => ({ ...at, ...d })));
  });
  return {
    name: scenario.name,
    ...(scenario.file ? { file: scenario.file } : {}),
    urls,
    total: scenario.steps.length,
    runs: { a: a.result, b: b.result },
    differences,
  };
}

type Found = Omit<Difference, 'step' | 'title' | 'name'>;

function outcomeDifference(a: StepResult | undefined, b: StepResult | undefined): Found | undefined {
  const word = (r: StepResult | undefined) => (r === undefined ? 'not run' : r.ok ? 'passed' : `failed: ${firstLine(r.error)}`);
  if ((a?.ok ?? false) === (b?.ok ?? false)) return undefined;
  return { kind: 'outcome', path: 'expect', a: word(a), b: word(b) };
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

/** The differences between two answers to the same step. */
export function stepDifferences(a: StepObservation, b: StepObservation): Found[] {
  const found: Found[] = [];
  const left = a.answer;
  const right = b.answer;
  if (left && right) {
    if (left.status !== right.status) found.push({ kind: 'status', path: 'status', a: String(left.status), b: String(right.status) });
    const codeA = errorCode(left.body);
    const codeB = errorCode(right.body);
    if (codeA !== codeB) found.push({ kind: 'code', path: 'body.code', a: codeA ?? 'none', b: codeB ?? 'none' });
    found.push(...bodyDifferences(left.body, right.body));
  } else if (left || right) {
    found.push({ kind: 'status', path: 'status', a: String(left?.status ?? 'no answer'), b: String(right?.status ?? 'no answer') });
  }
  if (a.events || b.events) {
    const list = (events: string[] | undefined) => (events ? `[${events.join(', ')}]` : 'not seen');
    if (list(a.events) !== list(b.events)) found.push({ kind: 'events', path: 'events', a: list(a.events), b: list(b.events) });
  }
  return found;
}

function errorCode(body: unknown): string | undefined {
  const code = (body as { code?: unknown } | undefined)?.code;
  return jsonType(body) === 'object' && typeof code === 'string' ? code : undefined;
}

function bodyDifferences(left: unknown, right: unknown): Found[] {
  if (jsonType(left) !== jsonType(right) || left === undefined || right === undefined) {
    const kind = (v: unknown) => (v === undefined ? 'absent' : jsonType(v));
    return kind(left) === kind(right) ? [] : [{ kind: 'type', path: 'body', a: kind(left), b: kind(right) }];
  }
  const a = shapeOf(left);
  const b = shapeOf(right);
  const found: Found[] = [];
  const paths = [...new Set([...a.types.keys(), ...b.types.keys()])].sort();
  for (const path of paths) {
    if (path === 'code' || underEmptyArray(path, a, b)) continue;
    const typesA = a.types.get(path);
    const typesB = b.types.get(path);
    // A field missing on one side: named once, at its top (not each field under it).
    if (!typesA || !typesB) {
      const parent = parentPath(path);
      if (parent && (!a.types.has(parent) || !b.types.has(parent))) continue;
      found.push({ kind: 'field', path: `body.${path}`, a: typeText(typesA), b: typeText(typesB) });
    } else if (typeText(typesA) !== typeText(typesB)) {
      found.push({ kind: 'type', path: `body.${path}`, a: typeText(typesA), b: typeText(typesB) });
    }
  }
  for (const path of [...new Set([...a.states.keys(), ...b.states.keys()])].sort()) {
    const valuesA = (a.states.get(path) ?? []).join(', ');
    const valuesB = (b.states.get(path) ?? []).join(', ');
    if (valuesA !== valuesB && a.states.has(path) && b.states.has(path))
      found.push({ kind: 'state', path: `body.${path}`, a: valuesA, b: valuesB });
  }
  return found;
}

function parentPath(path: string): string | undefined {
  const cut = Math.max(path.lastIndexOf('.'), path.endsWith('[]') ? path.length - 2 : -1);
  return cut > 0 ? path.slice(0, cut) : undefined;
}
