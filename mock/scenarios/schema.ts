// Validates a parsed scenario against spec/scenario.schema.json (compiled once, on first use)
// and words each problem for a person: "step 3 (POST /v1/quotes), field expect.status: must be
// an integer". A schema may carry `x-hint`, the sentence to show instead of ajv's when it fails.
import { readFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { projectPath } from '../../spec/project-root';

export const SCENARIO_SCHEMA_PATH = projectPath('spec', 'scenario.schema.json');

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addKeyword({ keyword: 'x-hint', schemaType: 'string' });
    compiled = ajv.compile(JSON.parse(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')) as object);
  }
  return compiled;
}

/** Keywords whose failure the owning schema's `x-hint` explains better than ajv. */
const HINTED = new Set(['oneOf', 'anyOf', 'not', 'pattern', 'type', 'minLength', 'maxLength', 'minimum', 'maximum', 'const', 'enum']);
const COMBINATORS = new Set(['oneOf', 'anyOf', 'not']);

/** The problems of a parsed scenario file, worded for a person; empty when it is valid. */
export function schemaProblems(data: unknown): string[] {
  const validate = validator();
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  const combinators = errors.filter((e) => COMBINATORS.has(e.keyword) && hintOf(e) !== undefined);
  // A hinted oneOf/anyOf/not speaks for the errors of its branches.
  const covered = (e: ErrorObject) =>
    combinators.some((h) => e.schemaPath.startsWith(`${h.schemaPath}/`) && within(e.instancePath, h.instancePath));
  // propertyNames: its per-name errors say it better.
  const visible = errors.filter((e) => e.keyword !== 'propertyNames' && !covered(e));
  const messages: string[] = [];
  for (const error of visible) {
    // A value of the wrong type fails its other keywords too; the type says it all.
    if (error.keyword !== 'type' && visible.some((e) => e.keyword === 'type' && e.instancePath === error.instancePath)) continue;
    messages.push(word(error, data));
  }
  return [...new Set(messages)];
}

function hintOf(error: ErrorObject): string | undefined {
  const parent = error.parentSchema as { 'x-hint'?: string } | undefined;
  return parent?.['x-hint'];
}

function within(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

function word(error: ErrorObject, data: unknown): string {
  const params = error.params as Record<string, unknown>;
  let segments = error.instancePath.split('/').slice(1).map(unescape);
  let message: string;
  const objectType = error.keyword === 'type' && params.type === 'object';
  const hint = HINTED.has(error.keyword) && !objectType ? hintOf(error) : undefined;
  if (typeof error.propertyName === 'string') {
    message = `the name "${error.propertyName}" is not allowed: ${hint ?? error.message}`;
  } else if (hint) {
    message = hint;
  } else if (error.keyword === 'additionalProperties') {
    segments = [...segments, String(params.additionalProperty)];
    const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
    message = `is not a known field${known.length ? ` (known: ${known.join(', ')})` : ''}`;
  } else if (error.keyword === 'required') {
    segments = [...segments, String(params.missingProperty)];
    message = 'is required';
  } else if (error.keyword === 'type') {
    const wanted =
      params.type === 'object'
        ? 'a mapping (key: value)'
        : params.type === 'array'
          ? 'a list'
          : `of type ${String(params.type).replace(',', ' or ')}`;
    message = `must be ${wanted}, got ${describe(error.data)}`;
  } else if (error.keyword === 'enum') {
    message = `must be one of ${(params.allowedValues as unknown[]).join(', ')}, got ${describe(error.data)}`;
  } else if (error.keyword === 'const') {
    message = `must be ${String(params.allowedValue)}, got ${describe(error.data)}`;
  } else {
    message = error.message ?? 'is not valid';
  }
  return `${where(segments, data)}: ${message}`;
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return JSON.stringify(value);
}

/** "step 3 (POST /v1/quotes), field expect.status", "receiver hooks, field script[1]", "field customer". */
export function where(segments: string[], data: unknown): string {
  const field = (parts: string[]) => parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  if (segments[0] === 'steps' && segments[1] !== undefined && /^\d+$/.test(segments[1])) {
    const index = Number(segments[1]);
    const step = (data as { steps?: unknown[] }).steps?.[index] as Record<string, unknown> | undefined;
    const action = step && typeof step === 'object' ? stepLabel(step) : undefined;
    const head = `step ${index + 1}${action ? ` (${action})` : ''}`;
    return segments.length > 2 ? `${head}, field ${field(segments.slice(2))}` : head;
  }
  if (segments[0] === 'receivers' && segments[1] !== undefined) {
    return segments.length > 2 ? `receiver ${segments[1]}, field ${field(segments.slice(2))}` : `receiver ${segments[1]}`;
  }
  return segments.length ? `field ${field(segments)}` : 'the file';
}

function stepLabel(step: Record<string, unknown>): string | undefined {
  for (const key of ['call', 'control', 'clock', 'webhooks']) {
    const value = step[key];
    if (typeof value === 'string' || typeof value === 'number') return key === 'call' ? String(value) : `${key} ${String(value)}`;
  }
  return undefined;
}
