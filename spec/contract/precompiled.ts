// Loading the validators the build generated for a document (standalone.ts writes them).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { projectPath } from '../project-root';
import { COMPILED_FORM } from './compiled-form';
import type { OpenApiDocument } from './document';
import { NAMED_SCHEMAS } from './named-schemas';
import type { Precompiled } from './validators';

/** Where the module for a document goes: spec/generated/validators/openapi.js for spec/openapi.yaml. */
export function standalonePath(documentPath: string): string {
  return projectPath('spec', 'generated', 'validators', `${basename(documentPath, extname(documentPath))}.js`);
}

/**
 * What the generated validators were made from: the document's bytes, the form ajv compiles it in
 * (COMPILED_FORM) and the schemas checked by name. A module built before any of them changed is
 * not used: validators built before discriminators were honoured would judge otherwise.
 */
export function documentHash(documentPath: string): string {
  return createHash('sha256')
    .update(readFileSync(documentPath))
    .update(`\u0000${COMPILED_FORM}\u0000${NAMED_SCHEMAS.join(',')}`)
    .digest('hex');
}

export interface PrecompiledModule extends Precompiled {
  documentHash: string;
  /** The document as parsed at build time. */
  document: OpenApiDocument;
}

/** The precompiled validators (and parsed form) of a document, or undefined when none were built or the document changed since. */
export function loadPrecompiled(documentPath: string): PrecompiledModule | undefined {
  const path = standalonePath(documentPath);
  if (!existsSync(path)) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a generated CommonJS module, found at run time
  const module = require(path) as PrecompiledModule;
  return module.documentHash === documentHash(documentPath) ? module : undefined;
}
