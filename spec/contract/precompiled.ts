// Loading the validators the build generated for a document (standalone.ts writes them).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { projectPath } from '../project-root';
import type { OpenApiDocument } from './document';
import type { Precompiled } from './validators';

/** Where the module for a document goes: spec/generated/validators/openapi.js for spec/openapi.yaml. */
export function standalonePath(documentPath: string): string {
  return projectPath('spec', 'generated', 'validators', `${basename(documentPath, extname(documentPath))}.js`);
}

export function documentHash(documentPath: string): string {
  return createHash('sha256').update(readFileSync(documentPath)).digest('hex');
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
