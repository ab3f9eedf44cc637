// The shape of a JSON answer, for comparing two targets that hold different records: each field's
// path and JSON type (values aside, since ids, timestamps and amounts differ between targets),
// and the values of the fields that name a state (`status`, `reason.code`), which must agree.
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export interface Shape {
  /** path → JSON types seen there (array items merged under `[]`), e.g. `data[].currentState.status` → string. */
  types: Map<string, Set<JsonType>>;
  /** Paths of arrays that were empty: their items' fields cannot be compared. */
  empty: Set<string>;
  /** path → the state values there, in order (`currentState.status` → [COMPLETED]). */
  states: Map<string, string[]>;
}

export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? type : 'object';
}

/** A field holds a state when it is called `status`, or is the `code` of a `reason` (FAILED's INSUFFICIENT_BALANCE). */
function isState(path: string): boolean {
  return /(^|\.)status$/.test(path) || /(^|\.)reason\.code$/.test(path);
}

export function shapeOf(body: unknown): Shape {
  const shape: Shape = { types: new Map(), empty: new Set(), states: new Map() };
  walk(body, '', shape);
  return shape;
}

function walk(value: unknown, path: string, shape: Shape): void {
  const type = jsonType(value);
  if (path !== '') {
    const seen = shape.types.get(path) ?? new Set<JsonType>();
    seen.add(type);
    shape.types.set(path, seen);
  }
  if (type === 'string' && isState(path)) shape.states.set(path, [...(shape.states.get(path) ?? []), value as string]);
  if (type === 'array') {
    const items = value as unknown[];
    if (items.length === 0) shape.empty.add(path);
    for (const item of items) walk(item, `${path}[]`, shape);
  } else if (type === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) walk(item, path === '' ? key : `${path}.${key}`, shape);
  }
}

export function typeText(types: Set<JsonType> | undefined): string {
  return types ? [...types].sort().join(' | ') : 'absent';
}

/** Whether a path lies under an array that is empty on either side (nothing there to compare). */
export function underEmptyArray(path: string, a: Shape, b: Shape): boolean {
  let at = path.indexOf('[]');
  while (at !== -1) {
    const array = path.slice(0, at);
    if (a.empty.has(array) || b.empty.has(array)) return true;
    at = path.indexOf('[]', at + 2);
  }
  return false;
}
