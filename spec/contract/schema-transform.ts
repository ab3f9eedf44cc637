// Schema rewrites done once before compiling: point local $refs at the registered document,
// and, for strict mode, close every object schema so an unknown field is reported.
import { isObject, type Json, type JsonObject } from './document';

export const DOCUMENT_ID = 'fos-openapi.json';

// Keys whose values are data, not schemas: never rewrite inside them.
const DATA_KEYS = new Set(['example', 'examples', 'enum', 'const', 'default', 'x-extensible-enum']);

export function rewriteRefs(node: Json): Json {
  return mapSchema(node, (obj) => {
    if (typeof obj.$ref === 'string' && obj.$ref.startsWith('#/')) obj.$ref = DOCUMENT_ID + obj.$ref;
  });
}

/**
 * Strict mode: an object schema that lists its properties and says nothing of others gets
 * `additionalProperties: false`. Only schemas typed `object` are closed, so conditional
 * fragments such as `if: {properties: …}` keep their meaning.
 */
export function closeObjects(node: Json): Json {
  return mapSchema(node, (obj) => {
    const isObjectType = obj.type === 'object' || (Array.isArray(obj.type) && obj.type.includes('object'));
    if (isObjectType && isObject(obj.properties) && obj.additionalProperties === undefined && obj.unevaluatedProperties === undefined) {
      obj.additionalProperties = false;
    }
  });
}

function mapSchema(node: Json, visit: (obj: JsonObject) => void): Json {
  if (Array.isArray(node)) return node.map((item) => mapSchema(item, visit));
  if (!isObject(node)) return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] = DATA_KEYS.has(key) ? value : mapSchema(value, visit);
  }
  visit(copy);
  return copy;
}
