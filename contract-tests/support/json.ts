// Plain JSON values: a field of a body nothing has checked yet, and a record without some of its
// keys.

/**
 * The value at `path` in a parsed JSON value, or undefined where there is no such field (a
 * missing key, an index past the end, or something other than an object or array on the way).
 */
export function field(value: unknown, ...path: ReadonlyArray<string | number>): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** A shallow copy of `record` without `keys` (what `{ key: _, ...rest }` gives, with no unused binding). */
export function without<T extends object, K extends keyof T>(record: T, ...keys: K[]): Omit<T, K> {
  const copy = { ...record };
  for (const key of keys) delete copy[key];
  return copy;
}
