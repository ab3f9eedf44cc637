// The ajv instances, one per mode: strict, lenient, and parameters (coercion and defaults).
import Ajv2020, { _, str, stringify, type CodeKeywordDefinition } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from './document';
import { closeObjects, DOCUMENT_ID, rewriteRefs } from './schema-transform';

/** Strict: the document closed and open value sets limited to known values; lenient: as written. */
export type Mode = 'strict' | 'lenient';
/** The ajv instances: one per mode, and one for parameters (coercion of path and query strings). */
export type Instance = Mode | 'parameters';

/**
 * `x-extensible-enum` (an open value set): strict holds a string to the values the document
 * knows; lenient accepts any (drift is found by comparing the two results). Written as code
 * rather than a validate function so standalone code can be generated from it.
 */
function knownValues(mode: Instance): CodeKeywordDefinition {
  return {
    keyword: 'x-extensible-enum',
    schemaType: 'array',
    error: {
      message: ({ schema }) => str`is not a known value (${(schema as string[]).join(', ')})`,
      params: ({ schema }) => _`{allowedValues: ${stringify(schema)}}`,
    },
    code(cxt) {
      if (mode !== 'strict') return;
      cxt.fail(_`typeof ${cxt.data} == "string" && !${stringify(cxt.schema)}.includes(${cxt.data})`);
    },
  };
}

/** The ajv instance of a mode, with the document's components registered; `source` keeps generated code for standalone output. */
export function makeAjv(doc: OpenApiDocument, mode: Instance, source = false): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: mode === 'parameters',
    useDefaults: mode === 'parameters',
    code: { source },
  });
  addFormats(ajv);
  ajv.addKeyword(knownValues(mode));
  const components = mode === 'strict' ? closeObjects(rewriteRefs(doc.components)) : rewriteRefs(doc.components);
  ajv.addSchema({ $id: DOCUMENT_ID, components });
  return ajv;
}
