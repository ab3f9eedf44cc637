// The allow-list of `scenario run --compare-with --allow <file>`: the differences between two
// targets that a user has looked at and accepts, kept in a YAML (or JSON) file:
//
//   - {step: 3, kind: code, path: body.code, reason: the sandbox names it QUOTE_USED}
//   - {kind: field, path: body.fees}        # on every step
//
// An entry matches a difference when each key it gives matches: `step` (the number, or the
// step's name), `kind`, `path` (exact, or a prefix ending in `*`), `scenario` (its name).
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import type { Comparison, Difference, DifferenceKind } from './compare';
import { UserError } from './errors';

export interface AllowEntry {
  scenario?: string;
  step?: number | string;
  kind?: DifferenceKind;
  path?: string;
  reason?: string;
}

const KINDS: DifferenceKind[] = ['status', 'code', 'field', 'type', 'state', 'events', 'outcome'];
const KEYS = ['scenario', 'step', 'kind', 'path', 'reason'];

export function readAllowList(file: string): AllowEntry[] {
  let data: unknown;
  try {
    data = load(readFileSync(file, 'utf8'), { filename: file });
  } catch (error) {
    throw new UserError(`cannot read the allow-list ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  return checkAllowList(data ?? [], file);
}

export function checkAllowList(data: unknown, file = 'allow-list'): AllowEntry[] {
  const list = Array.isArray(data) ? data : (data as { allow?: unknown } | null)?.allow;
  if (!Array.isArray(list)) throw new UserError(`${file}: must be a list of {step?, kind?, path?, scenario?, reason?}`);
  const problems: string[] = [];
  list.forEach((entry: unknown, i) => {
    const at = `${file}: entry ${i + 1}`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return problems.push(`${at} is not an object`);
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) if (!KEYS.includes(key)) problems.push(`${at}: unknown key "${key}" (keys: ${KEYS.join(', ')})`);
    if (e.kind !== undefined && !KINDS.includes(e.kind as DifferenceKind)) problems.push(`${at}: kind must be one of ${KINDS.join(', ')}`);
    if (e.step !== undefined && typeof e.step !== 'number' && typeof e.step !== 'string')
      problems.push(`${at}: step is a number or a name`);
    for (const key of ['path', 'scenario', 'reason'])
      if (e[key] !== undefined && typeof e[key] !== 'string') problems.push(`${at}: ${key} must be a string`);
    // An entry naming neither a kind nor a path would hide every difference of its steps.
    if (e.kind === undefined && e.path === undefined) problems.push(`${at}: give a kind or a path (or both)`);
    return undefined;
  });
  if (problems.length > 0) throw new UserError(problems.join('\n'));
  return list as AllowEntry[];
}

function matches(entry: AllowEntry, scenario: string, d: Difference): boolean {
  if (entry.scenario !== undefined && entry.scenario !== scenario) return false;
  if (entry.step !== undefined && entry.step !== d.step && entry.step !== d.name && String(entry.step) !== String(d.step)) return false;
  if (entry.kind !== undefined && entry.kind !== d.kind) return false;
  if (entry.path !== undefined) {
    const prefix = entry.path.endsWith('*') ? entry.path.slice(0, -1) : undefined;
    if (prefix !== undefined ? !d.path.startsWith(prefix) : entry.path !== d.path) return false;
  }
  return true;
}

/** Marks each difference an entry allows (with the entry's reason). */
export function applyAllowList(comparison: Comparison, entries: AllowEntry[]): Comparison {
  const differences = comparison.differences.map((d) => {
    const entry = entries.find((e) => matches(e, comparison.name, d));
    return entry ? { ...d, allowed: entry.reason ?? (true as const) } : d;
  });
  return { ...comparison, differences };
}

export function unallowed(comparison: Comparison): Difference[] {
  return comparison.differences.filter((d) => d.allowed === undefined);
}
