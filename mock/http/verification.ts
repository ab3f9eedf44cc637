// Verification, after WireMock's verify and near misses: a pattern is a list of checks,
// each naming the field it reads and saying how an item differs from it; a count says how many
// items must match. Pure: the journal's requests or the webhook messages in, the verdict out
// (the matches, and when too few matched, the items that came closest with every difference).
import { ServiceError } from '../errors/catalogue';
import { compileUserPattern, PatternError, type UserPattern } from '../shared';

export interface CountExpectation {
  exactly?: number;
  atLeast?: number;
  atMost?: number;
}

export interface ValueMatch {
  equals?: unknown;
  contains?: string;
  matches?: string;
}

export interface Difference {
  field: string;
  /** What the pattern asked for, in words (`equals "10.00"`). */
  expected: string;
  /** What was there; absent when nothing was. */
  actual?: unknown;
}

/** One rule of a pattern: undefined when the item meets it, else how it differs. */
export type Check<T> = (item: T) => Difference | undefined;

export interface Verdict<T> {
  ok: boolean;
  count: number;
  expected: CountExpectation;
  searched: number;
  matches: T[];
  nearMisses: Array<{ item: T; differences: Difference[] }>;
}

/**
 * Values longer than this (as text) are cut before `contains` and `matches` read them: with a
 * linear-time engine, a bound on what a pattern costs.
 */
const TEXT_LIMIT = 16 * 1024;

function invalid(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', { fields: [{ field, message }] });
}

/** `$`, `$.a.b`, `$.items[0].id`, `$["odd key"]`: the steps into a JSON value; a 400 naming `field` otherwise. */
export function parseJsonPath(path: string, field: string): Array<string | number> {
  const steps: Array<string | number> = [];
  const step = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\['((?:[^'\\]|\\.)*)'\]/y;
  step.lastIndex = 1;
  if (path[0] !== '$') throw invalid(field, 'a JSON path starts with $');
  while (step.lastIndex < path.length) {
    const at = step.lastIndex;
    const found = step.exec(path);
    if (!found) throw invalid(field, `not a JSON path step at character ${at + 1} (use .name, [index] or ["name"])`);
    steps.push(found[1] ?? (found[2] !== undefined ? Number(found[2]) : ((found[3] ?? found[4]) as string)));
  }
  return steps;
}

/** The value at the steps, or undefined when the path leads nowhere. */
export function valueAt(value: unknown, steps: Array<string | number>): unknown {
  let current = value;
  for (const step of steps) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).slice(0, TEXT_LIMIT);

/** JSON equality, keys in any order; a string equals a number written the same (`"10"` and 10). */
function sameValue(expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'string' && typeof actual === 'number') return expected === String(actual);
  if (typeof expected === 'number' && typeof actual === 'string') return String(expected) === actual;
  if (expected === null || actual === null || typeof expected !== 'object' || typeof actual !== 'object') return expected === actual;
  if (Array.isArray(expected) !== Array.isArray(actual)) return false;
  const keys = Object.keys(expected);
  if (keys.length !== Object.keys(actual).length) return false;
  return keys.every((key) => sameValue((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key]));
}

/**
 * A value test from `equals`, `contains` or `matches`, compiled once; a pattern the linear-time
 * engine refuses is a 400 naming `field` (see mock/shared/user-pattern.ts).
 */
export function valueTest(match: ValueMatch, field: string): { expected: string; test(actual: unknown): boolean } {
  if (match.matches !== undefined) {
    let pattern: UserPattern;
    try {
      pattern = compileUserPattern(match.matches);
    } catch (error) {
      if (error instanceof PatternError) throw invalid(`${field}.matches`, error.message);
      throw error;
    }
    return { expected: `matches /${match.matches}/`, test: (actual) => actual !== undefined && pattern.test(asText(actual)) };
  }
  if (match.contains !== undefined) {
    const part = match.contains;
    return { expected: `contains ${JSON.stringify(part)}`, test: (actual) => actual !== undefined && asText(actual).includes(part) };
  }
  return { expected: `equals ${JSON.stringify(match.equals)}`, test: (actual) => sameValue(match.equals, actual) };
}

/** A check that a read value passes a test; the difference shows what was read. */
export function valueCheck<T>(
  field: string,
  read: (item: T) => unknown,
  test: { expected: string; test(actual: unknown): boolean },
): Check<T> {
  return (item) => {
    const actual = read(item);
    if (test.test(actual)) return undefined;
    return actual === undefined ? { field, expected: test.expected } : { field, expected: test.expected, actual };
  };
}

/** A count expectation as words: `exactly 2`, `at least 1`, `between 1 and 3`. */
export function describeCount(count: CountExpectation): string {
  if (count.exactly !== undefined) return `exactly ${count.exactly}`;
  if (count.atLeast !== undefined && count.atMost !== undefined) return `between ${count.atLeast} and ${count.atMost}`;
  if (count.atMost !== undefined) return `at most ${count.atMost}`;
  return `at least ${count.atLeast ?? 1}`;
}

export function countHolds(count: CountExpectation, found: number): boolean {
  if (count.exactly !== undefined) return found === count.exactly;
  if (count.atLeast !== undefined && found < count.atLeast) return false;
  if (count.atMost !== undefined && found > count.atMost) return false;
  return count.atLeast !== undefined || count.atMost !== undefined || found >= 1;
}

/** The fewest a count asks for: near misses are listed only when fewer than that matched. */
const fewest = (count: CountExpectation) => count.exactly ?? count.atLeast ?? (count.atMost === undefined ? 1 : 0);

/**
 * Runs the checks over the items (newest first). Near misses, when too few matched: the items
 * with the fewest differences, newest first among equals; an item that meets none of several
 * checks is no near miss.
 */
export function verify<T>(items: T[], checks: Array<Check<T>>, count: CountExpectation | undefined, nearMissLimit: number): Verdict<T> {
  const expected = count ?? { atLeast: 1 };
  const matches: T[] = [];
  const misses: Array<{ item: T; differences: Difference[] }> = [];
  for (const item of items) {
    const differences = checks.map((check) => check(item)).filter((d): d is Difference => d !== undefined);
    if (differences.length === 0) matches.push(item);
    else if (checks.length === 1 || differences.length < checks.length) misses.push({ item, differences });
  }
  const ok = countHolds(expected, matches.length);
  // A stable sort: newest first among items with as many differences.
  const nearMisses =
    ok || matches.length >= fewest(expected)
      ? []
      : misses.sort((a, b) => a.differences.length - b.differences.length).slice(0, nearMissLimit);
  return { ok, count: matches.length, expected, searched: items.length, matches, nearMisses };
}
