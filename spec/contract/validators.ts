// The ajv instances. Strict: the document closed (no unknown field) and open value sets
// (`x-extensible-enum`) limited to the values the document knows; the mock holds itself to
// this. Lenient: the document as written; a real target must pass this, and what passes
// lenient but fails strict is drift (a new value or field), not a failure.
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Json, OpenApiDocument } from './document';
import { closeObjects, DOCUMENT_ID, rewriteRefs } from './schema-transform';

export interface FieldError {
  /** Where: `body.owner.legalName`, `query.limit`, `header.x-idempotency-key`. */
  field: string;
  message: string;
}

export type Mode = 'strict' | 'lenient';

export interface SchemaCompiler {
  compile(schema: Json, mode: Mode): ValidateFunction;
  /** Validators for parameters coerce strings ("10" → 10) and apply defaults. */
  compileParameters(schema: Json): ValidateFunction;
}

function makeAjv(doc: OpenApiDocument, mode: Mode | 'parameters'): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: mode === 'parameters',
    useDefaults: mode === 'parameters',
  });
  addFormats(ajv);
  // Strict holds values to the known list; lenient accepts any string (drift is found by
  // comparing the two results).
  type KeywordCheck = ((known: Json[], data: Json) => boolean) & { errors?: Array<Partial<ErrorObject>> };
  const knownValue: KeywordCheck = (known, data) => {
    if (typeof data !== 'string' || known.includes(data)) return true;
    knownValue.errors = [{ keyword: 'x-extensible-enum', message: `is not a known value (${known.join(', ')})`, params: { allowedValues: known } }];
    return false;
  };
  ajv.addKeyword({ keyword: 'x-extensible-enum', schemaType: 'array', validate: mode === 'strict' ? knownValue : () => true, errors: true });
  const components = mode === 'strict' ? closeObjects(rewriteRefs(doc.components)) : rewriteRefs(doc.components);
  ajv.addSchema({ $id: DOCUMENT_ID, components } as object);
  return ajv;
}

export function createCompiler(doc: OpenApiDocument): SchemaCompiler {
  const strict = makeAjv(doc, 'strict');
  const lenient = makeAjv(doc, 'lenient');
  const parameters = makeAjv(doc, 'parameters');
  return {
    compile(schema, mode) {
      const prepared = mode === 'strict' ? closeObjects(rewriteRefs(schema)) : rewriteRefs(schema);
      return (mode === 'strict' ? strict : lenient).compile(prepared as object);
    },
    compileParameters(schema) {
      return parameters.compile(rewriteRefs(schema) as object);
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
    let path = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    let message = error.message ?? 'is not valid';
    if (error.keyword === 'required') path = [...path, String(error.params.missingProperty)];
    if (error.keyword === 'additionalProperties') {
      path = [...path, String(error.params.additionalProperty)];
      message = 'is not a known field';
    }
    if (error.keyword === 'oneOf') message = 'must match exactly one of the alternatives the document allows';
    if (error.keyword === 'enum') message = `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    const field = [prefix, ...path].filter(Boolean).join('.');
    const line = `${field}\u0000${message}`;
    if (seen.has(line)) continue;
    seen.add(line);
    out.push({ field, message });
  }
  return out;
}
