// Reads the `x-lifecycle` declarations of the document (on each status field with a lifecycle)
// and writes them as the TypeScript module spec/generated/lifecycles.ts. A declaration that names
// a state outside its field's values, an event outside EventType, a transition twice, or terminal
// states that disagree with its transitions is refused, so the table is never wrong by a typo.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './document';

export interface DeclaredTransition {
  from: string;
  to: string;
  event: string | null;
}

export interface DeclaredLifecycle {
  name: string;
  /** Where it is declared: `Schema.property`. */
  field: string;
  states: string[];
  initial: Array<{ state: string; event: string | null }>;
  transitions: DeclaredTransition[];
  terminal: string[];
}

export const LIFECYCLES_MODULE = 'spec/generated/lifecycles.ts';

/** Every lifecycle the document declares, in the order of its schemas. */
export function readLifecycles(doc: OpenApiDocument): DeclaredLifecycle[] {
  const schemas = (doc.components.schemas ?? {}) as JsonObject;
  const events = eventTypes(schemas);
  const found: DeclaredLifecycle[] = [];
  for (const [schemaName, schema] of Object.entries(schemas)) {
    if (!isObject(schema) || !isObject(schema.properties)) continue;
    for (const [property, field] of Object.entries(schema.properties)) {
      if (!isObject(field) || field['x-lifecycle'] === undefined) continue;
      found.push(readOne(`${schemaName}.${property}`, field, events));
    }
  }
  const names = found.map((l) => l.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`x-lifecycle: the name ${twice} is declared twice`);
  return found;
}

function readOne(where: string, field: JsonObject, events: string[]): DeclaredLifecycle {
  const fail = (message: string): never => {
    throw new Error(`x-lifecycle on ${where}: ${message}`);
  };
  const declared = field['x-lifecycle'];
  if (!isObject(declared)) return fail('must be an object');
  const states = strings(field['x-extensible-enum'] ?? field.enum) ?? fail('the field has no enum or x-extensible-enum of states');
  const state = (value: Json | undefined, role: string): string =>
    typeof value === 'string' && states.includes(value)
      ? value
      : fail(`${role} ${JSON.stringify(value)} is not one of ${states.join(', ')}`);
  const event = (value: Json | undefined): string | null => {
    if (value === undefined || value === null) return null;
    return typeof value === 'string' && events.includes(value) ? value : fail(`event ${JSON.stringify(value)} is not an EventType`);
  };
  const name = typeof declared.name === 'string' && /^[a-z][A-Za-z]*$/.test(declared.name) ? declared.name : fail('needs a camelCase name');
  const entries = (key: string): JsonObject[] => {
    const list = declared[key];
    if (!Array.isArray(list) || !list.every(isObject)) return fail(`${key} must be a list of objects`);
    return list;
  };
  const initial = entries('initial').map((e) => ({ state: state(e.state, 'initial state'), event: event(e.event) }));
  if (initial.length === 0) fail('needs at least one initial state');
  const transitions = entries('transitions').map((t) => ({ from: state(t.from, 'from'), to: state(t.to, 'to'), event: event(t.event) }));
  const pairs = transitions.map((t) => `${t.from} -> ${t.to}`);
  const repeated = pairs.find((pair, i) => pairs.indexOf(pair) !== i);
  if (repeated) fail(`the transition ${repeated} is listed twice`);
  if (transitions.some((t) => t.from === t.to)) fail('a transition must change the state');
  const terminal = (strings(declared.terminal) ?? fail('terminal must be a list of states')).map((s) => state(s, 'terminal state'));
  // Terminal is stated for the reader, and must say the same as the transitions: no way out.
  const endless = states.filter((s) => !transitions.some((t) => t.from === s));
  const reached = new Set([...initial.map((i) => i.state), ...transitions.map((t) => t.to)]);
  const expected = endless.filter((s) => reached.has(s));
  if ([...terminal].sort().join() !== [...expected].sort().join()) {
    fail(`terminal must be the states reached with no transition out: ${expected.join(', ') || 'none'}`);
  }
  return { name, field: where, states, initial, transitions, terminal };
}

function eventTypes(schemas: JsonObject): string[] {
  const schema = schemas.EventType;
  const values = isObject(schema) ? strings(schema.enum) : undefined;
  if (!values) throw new Error('x-lifecycle: the document has no EventType enum');
  return values;
}

function strings(value: Json | undefined): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/** The text of spec/generated/lifecycles.ts: the declarations as one typed constant. */
export function renderLifecycles(lifecycles: DeclaredLifecycle[]): string {
  const q = (value: string | null) => (value === null ? 'null' : `'${value}'`);
  const list = (values: string[]) => `[${values.map(q).join(', ')}]`;
  const lines = [
    '// Generated by scripts/generate-lifecycles.ts from the x-lifecycle declarations of spec/openapi.yaml; do not edit.',
    '// After an edit of a declaration, run `npm run generate:lifecycles`.',
    "// Each lifecycle: its states (the status field's values), the initial states with the event emitted",
    '// on entering one, every allowed transition with the event it emits (null: none), and the terminal states.',
    '// Read through spec/lifecycles.ts.',
    '',
    'export const LIFECYCLES = {',
  ];
  for (const l of lifecycles) {
    lines.push(`  ${l.name}: {`);
    lines.push(`    field: '${l.field}',`);
    lines.push(`    states: ${list(l.states)},`);
    lines.push('    initial: [');
    for (const i of l.initial) lines.push(`      { state: ${q(i.state)}, event: ${q(i.event)} },`);
    lines.push('    ],');
    lines.push('    transitions: [');
    for (const t of l.transitions) lines.push(`      { from: ${q(t.from)}, to: ${q(t.to)}, event: ${q(t.event)} },`);
    lines.push('    ],');
    lines.push(`    terminal: ${list(l.terminal)},`);
    lines.push('  },');
  }
  lines.push('} as const;', '');
  return lines.join('\n');
}
