// Compiling the document's schemas. Strict: the document closed (no unknown field) and open value sets
// (`x-extensible-enum`) limited to the values the document knows; the mock holds itself to
// this. Lenient: the document as written; a real target must pass this, and what passes
// lenient but fails strict is drift (a new value or field), not a failure.
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { deferred } from '../../mock/lazy/deferred';
import type { Instance, Mode } from './ajv-instance';
import type { Json, OpenApiDocument } from './document';
import { closeObjects, rewriteRefs } from './schema-transform';

export type { Instance, Mode };

// ajv itself is loaded when something must compile: with a precompiled set, a process may never.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a require inside `deferred` is what defers the load
const ajvInstance = deferred(() => require('./ajv-instance') as typeof import('./ajv-instance'));

export interface FieldError {
  /** Where: `body.owner.legalName`, `query.limit`, `header.x-idempotency-key`. */
  field: string;
  message: string;
}

export interface SchemaCompiler {
  /**
   * `key` names the validator among the document's (`listAccounts.response.200`): a
   * strict one is taken from the precompiled set when there is one (standalone.ts).
   */
  compile(schema: Json, mode: Mode, key?: string): ValidateFunction;
  /** Validators for parameters coerce strings ("10" → 10) and apply defaults. */
  compileParameters(schema: Json, key?: string): ValidateFunction;
}

/** Validators generated ahead of time (ajv standalone code), by key; see standalone.ts. */
export interface Precompiled {
  strict: Record<string, ValidateFunction>;
  parameters: Record<string, ValidateFunction>;
}

/** A schema as its mode compiles it: local $refs pointed at the registered document; strict closes objects (unevaluatedProperties). */
export function prepareSchema(schema: Json, mode: Instance): Json {
  return mode === 'strict' ? closeObjects(rewriteRefs(schema)) : rewriteRefs(schema);
}

export function createCompiler(doc: OpenApiDocument, precompiled?: Precompiled): SchemaCompiler {
  // Built on first need (ajv-instance.ts).
  const instances = new Map<Instance, Ajv2020>();
  const ajvFor = (mode: Instance): Ajv2020 => {
    let ajv = instances.get(mode);
    if (!ajv) {
      ajv = ajvInstance().makeAjv(doc, mode);
      instances.set(mode, ajv);
    }
    return ajv;
  };
  return {
    compile(schema, mode, key) {
      const ready = mode === 'strict' && key !== undefined ? precompiled?.strict[key] : undefined;
      return ready ?? ajvFor(mode).compile(prepareSchema(schema, mode) as object);
    },
    compileParameters(schema, key) {
      const ready = key !== undefined ? precompiled?.parameters[key] : undefined;
      return ready ?? ajvFor('parameters').compile(prepareSchema(schema, 'parameters') as object);
    },
  };
}

/** Turns ajv's errors into one line per offending field, with the field named in full. */
export function toFieldErrors(prefix: string, errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const all = errors ?? [];
  // oneOf/anyOf/if wrappers repeat what their branches already said; keep them only when they
  // are all there is (a oneOf whose alternatives *both* match has no branch error to show).
  const wrapper = (e: ErrorObject) => e.keyword === 'oneOf' || e.keyword === 'if' || e.keyword === 'anyOf';
  const specific = all.some((e) => !wrapper(e));
  for (const error of all) {
    if (specific && wrapper(error)) continue;
    let path = error.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    let message = error.message ?? 'is not valid';
    if (error.keyword === 'required') path = [...path, String(error.params.missingProperty)];
    // Strict mode closes objects with unevaluatedProperties (schema-transform.ts); a schema the
    // document closes itself may use additionalProperties.
    if (error.keyword === 'unevaluatedProperties' || error.keyword === 'additionalProperties') {
      path = [...path, String(error.params.unevaluatedProperty ?? error.params.additionalProperty)];
      message = 'is not a known field';
    }
    if (error.keyword === 'oneOf') message = 'must match exactly one of the alternatives the document allows';
    if (error.keyword === 'discriminator') {
      // A tag outside the mapping is named, with its values, by the enum the union is given beside
      // its discriminator (schema-transform.ts: a discriminator is kept only with it).
      if (error.params.error === 'mapping') continue;
      path = [...path, String(error.params.tag)];
      message = error.params.tagValue === undefined ? `must have required property '${String(error.params.tag)}'` : 'must be string';
    }
    if (error.keyword === 'enum') message = `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    const field = [prefix, ...path].filter(Boolean).join('.');
    const line = `${field}\u0000${message}`;
    if (seen.has(line)) continue;
    seen.add(line);
    out.push({ field, message });
  }
  return out;
}
