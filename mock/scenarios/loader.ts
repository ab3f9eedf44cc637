// Reads a scenario file (YAML), checks it against spec/scenario.schema.json, then checks what a
// schema cannot: every template names a built-in or a value an earlier step saves, every
// receiver named by an expectation is declared, and `expect.conforms` is on a call. All problems
// come back at once, with the file, the step number and the field.
import { readFileSync } from 'node:fs';
import { load, YAMLException } from 'js-yaml';
import { CONTROL_ROOT, isControlPath } from '../http/control-path';
import { ScenarioFileError, UserError } from './errors';
import { parsePath } from './paths';
import { schemaProblems, where } from './schema';
import { templateRefs } from './template';
import type { Scenario, Step } from './types';

export const INLINE = '(inline scenario)';

/** Built-in template names and the members each one has (receivers: the declared names). */
const BUILT_INS: Record<string, string[] | undefined> = {
  customer: ['id', 'clientId', 'clientSecret', 'accounts', 'beneficiaries'],
  accounts: ['funded', 'editable'],
  receivers: undefined,
};

export function loadScenarioFile(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UserError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}`,
    );
  }
  return parseScenario(text, file);
}

export function parseScenario(text: string, file = INLINE): Scenario {
  let data: unknown;
  try {
    data = load(text, { filename: file });
  } catch (error) {
    if (error instanceof YAMLException) {
      const mark = error.mark as { line?: number; column?: number } | undefined;
      const at = mark?.line !== undefined ? ` (line ${mark.line + 1}, column ${(mark.column ?? 0) + 1})` : '';
      throw new ScenarioFileError(file, [`not valid YAML: ${error.reason}${at}`]);
    }
    throw error;
  }
  if (data === undefined || data === null) throw new ScenarioFileError(file, ['the file is empty']);
  return checkScenario(data, file);
}

/** Validates a parsed scenario (from a file or built in code); throws ScenarioFileError listing every problem. */
export function checkScenario(data: unknown, file = INLINE): Scenario {
  const problems = schemaProblems(data);
  if (problems.length > 0) throw new ScenarioFileError(file, problems);
  const scenario = data as Scenario;
  const more = referenceProblems(scenario);
  if (more.length > 0) throw new ScenarioFileError(file, more);
  return file === INLINE ? scenario : { ...scenario, file };
}

function referenceProblems(scenario: Scenario): string[] {
  const receivers = new Set(Object.keys(scenario.receivers ?? {}));
  const saved = new Set<string>();
  const problems: string[] = [];
  scenario.steps.forEach((step, index) => {
    const at = (field: string) => where(['steps', String(index), ...(field ? [field] : [])], scenario);
    const [method, target = ''] = step.call?.split(' ') ?? [];
    if (isControlPath(target.split('?')[0]!))
      problems.push(`${at('call')}: /_mock paths are control calls: write control: ${method} ${target.slice(CONTROL_ROOT.length)}`);
    for (const { field, expression } of stepTemplates(step)) {
      const problem = templateProblem(expression, saved, receivers);
      if (problem) problems.push(`${at(field)}: {{${expression}}} ${problem}`);
    }
    // The document describes the service API only: a control, clock or webhooks answer has no operation in it.
    if (step.expect?.conforms !== undefined && step.call === undefined)
      problems.push(`${at('expect.conforms')}: conforms goes with call (it checks an answer of the service API against spec/openapi.yaml)`);
    const receiver = step['expect-events']?.receiver;
    if (receiver !== undefined && !receivers.has(receiver)) {
      const declared = receivers.size ? `declared: ${[...receivers].join(', ')}` : 'add it under receivers:';
      problems.push(`${at('expect-events.receiver')}: no receiver "${receiver}" is declared (${declared})`);
    }
    for (const name of Object.keys(step.save ?? {})) saved.add(name);
  });
  return problems;
}

function stepTemplates(step: Step): Array<{ field: string; expression: string }> {
  const fields: Array<[string, unknown]> = [
    ['call', step.call],
    ['control', step.control],
    ['body', step.body],
    ['headers', step.headers],
    ['expect.body', step.expect?.body],
    ['expect.headers', step.expect?.headers],
  ];
  return fields.flatMap(([field, value]) =>
    templateRefs(value).map((ref) => ({
      field: ref.at ? `${field}${ref.at.startsWith('[') ? '' : '.'}${ref.at}` : field,
      expression: ref.expression,
    })),
  );
}

function templateProblem(expression: string, saved: Set<string>, receivers: Set<string>): string | undefined {
  let segments;
  try {
    segments = parsePath(expression);
  } catch (error) {
    return `is not a name: ${(error as Error).message}`;
  }
  const [root, member, leaf] = segments.map(String);
  if (root === undefined) return 'is empty';
  if (root in BUILT_INS) {
    if (root === 'receivers') {
      if (member === undefined || !receivers.has(member))
        return `names no declared receiver (${receivers.size ? `declared: ${[...receivers].join(', ')}` : 'none declared'})`;
      if (leaf !== 'url') return 'is not a built-in: a receiver has only .url';
      return undefined;
    }
    const members = BUILT_INS[root] as string[];
    if (member === undefined || !members.includes(member)) return `is not a built-in (${members.map((m) => `${root}.${m}`).join(', ')})`;
    return undefined;
  }
  if (!saved.has(root))
    return `is not a built-in and no earlier step saves "${root}"${saved.size ? ` (saved so far: ${[...saved].join(', ')})` : ''}`;
  return undefined;
}
