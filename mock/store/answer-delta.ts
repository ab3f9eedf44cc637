// An idempotency answer kept as its difference from the record it showed (memory-store.ts,
// record-table.ts). A create answers the record it stored, and the answer must be replayed as it
// was for 24 h of mock time (DESIGN: "returns the first status and body again"), while the record
// itself moves on (an operation settles within seconds). Kept whole, the answer was a second copy
// of nearly every operation: about 270 of the 1,558 bytes a stored operation took. Kept as "the
// record, but with these top-level values", a settled operation's answer is its first state,
// transactions and update time: a few dozen bytes.
import { deepFreeze } from './freeze';

/** How the first answer differs from the record now; undefined when it is the record as it is. */
export interface AnswerDelta {
  /** The answer's keys in its order, when they are not the record's keys in the record's order. */
  keys?: string[];
  /** The answer's values that the record does not have (any more), by key. */
  values?: Record<string, unknown>;
}

type Fields = Record<string, unknown>;

/** What `answer` is, relative to `record` (both plain objects, as records are). */
export function answerDelta(answer: object, record: object): AnswerDelta | undefined {
  const shown = answer as Fields;
  const now = record as Fields;
  const keys = Object.keys(shown);
  const recordKeys = Object.keys(now);
  const values: Fields = {};
  let differs = false;
  for (const key of keys) {
    if (Object.hasOwn(now, key) && sameJson(shown[key], now[key])) continue;
    values[key] = shown[key];
    differs = true;
  }
  const sameKeys = keys.length === recordKeys.length && keys.every((key, i) => key === recordKeys[i]);
  if (sameKeys && !differs) return undefined;
  return { ...(sameKeys ? {} : { keys }), ...(differs ? { values } : {}) };
}

/** The first answer again, from the record now and the difference kept; frozen, as records are. */
export function answerFrom(record: object, delta: AnswerDelta | undefined): object {
  if (delta === undefined) return record;
  const now = record as Fields;
  const values = delta.values ?? {};
  const out: Fields = {};
  for (const key of delta.keys ?? Object.keys(now)) out[key] = Object.hasOwn(values, key) ? values[key] : now[key];
  return deepFreeze(out);
}

/** Equal values with their keys in the same order (a replay is the same JSON, not an equal object). */
function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  for (let i = 0; i < aKeys.length; i++) {
    const key = aKeys[i]!;
    if (key !== bKeys[i] || !sameJson((a as Fields)[key], (b as Fields)[key])) return false;
  }
  return true;
}
