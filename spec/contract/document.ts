// Loads spec/openapi.yaml once and resolves the non-schema $refs (parameters, responses,
// request bodies, headers) that OpenAPI allows but JSON Schema validators do not follow.
import { readFileSync } from 'node:fs';
// js-yaml: the same result as `yaml` for this document, about five times faster to parse,
// which is most of start-up.
import { load } from 'js-yaml';
import { projectPath } from '../project-root';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface OpenApiDocument extends JsonObject {
  openapi: string;
  paths: JsonObject;
  components: JsonObject;
}

export const DEFAULT_DOCUMENT_PATH = projectPath('spec', 'openapi.yaml');

export function loadDocument(path: string = DEFAULT_DOCUMENT_PATH): OpenApiDocument {
  const doc = load(readFileSync(path, 'utf8')) as OpenApiDocument;
  if (!doc || typeof doc !== 'object' || !doc.paths || !doc.components) {
    throw new Error(`fos-mock: ${path} is not an OpenAPI document with paths and components`);
  }
  return doc;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `#/...` pointer, repeatedly, until the target is not itself a $ref. */
export function deref(doc: OpenApiDocument, node: Json | undefined): Json | undefined {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`fos-mock: $ref loop at ${current.$ref}`);
    current = pointer(doc, current.$ref);
  }
  return current;
}

export function pointer(doc: OpenApiDocument, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`fos-mock: only local $refs are supported, got ${ref}`);
  let node: Json = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !(key in node)) throw new Error(`fos-mock: unresolved $ref ${ref}`);
    node = node[key] as Json;
  }
  return node;
}
