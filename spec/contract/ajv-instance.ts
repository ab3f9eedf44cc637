// The ajv instances, one per mode: strict, lenient, and parameters (coercion and defaults).
import Ajv2020, { _, str, stringify, type CodeKeywordDefinition } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from './document';
import { projectPath } from '../project-root';
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

/** formats.cjs (ajv-formats' formats, date-time with a fast path): from the project root, so source and dist/ load one file. */
export const FORMATS_PATH = projectPath('spec', 'contract', 'formats.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS module kept outside the TypeScript build (see its header)
const { formats } = require(FORMATS_PATH) as { formats: Record<string, Parameters<Ajv2020['addFormat']>[1]> };

/**
 * The ajv instance of a mode, with the document's components registered. `formatsFrom` (for
 * standalone output: generated code keeps the source) is how generated code requires
 * formats.cjs, a path relative to where that code is written.
 */
export function makeAjv(doc: OpenApiDocument, mode: Instance, formatsFrom?: string): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    // A oneOf with a discriminator (OpenAPI) is checked against the branch its tag names only: a
    // COMPANY entity's errors are the company form's, not the individual form's fields as well.
    discriminator: true,
    coerceTypes: mode === 'parameters',
    useDefaults: mode === 'parameters',
    code: formatsFrom === undefined ? { source: false } : { source: true, formats: _`require(${formatsFrom}).formats` },
  });
  // ajv-formats' keywords (formatMinimum…) and formats; then date-time, the one formats.cjs changes
  // (its other formats are ajv-formats' own objects: test/spec/formats.test.ts).
  addFormats(ajv);
  ajv.addFormat('date-time', formats['date-time']!);
  ajv.addKeyword(knownValues(mode));
  const components = mode === 'strict' ? closeObjects(rewriteRefs(doc.components)) : rewriteRefs(doc.components);
  ajv.addSchema({ $id: DOCUMENT_ID, components });
  return ajv;
}
