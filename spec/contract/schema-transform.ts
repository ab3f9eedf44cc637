// Schema rewrites done once before compiling: point local $refs at the registered document (and
// give each discriminator to ajv as ajv takes it), and, for strict mode, close every object schema
// so an unknown field is reported.
import { isObject, type Json, type JsonObject } from './document';

export const DOCUMENT_ID = 'fos-openapi.json';

// Keys whose values are data, not schemas: never rewrite inside them.
const DATA_KEYS = new Set(['example', 'examples', 'enum', 'const', 'default', 'x-extensible-enum', 'x-lifecycle']);

export function rewriteRefs(node: Json): Json {
  return mapSchema(node, (obj) => {
    if (typeof obj.$ref === 'string' && obj.$ref.startsWith('#/')) obj.$ref = DOCUMENT_ID + obj.$ref;
    if (isObject(obj.discriminator) && isObject(obj.discriminator.mapping)) asAjvDiscriminator(obj);
  });
}

/**
 * Ajv's discriminator (ajv-instance.ts) finds each branch by the `const` of its tag and refuses a
 * `mapping`; the document's mappings name those same branches (test/spec/discriminators.test.ts).
 * The mapping's values become an `enum` of the tag beside the oneOf, so a tag outside them is
 * named with the values it may take (ajv's own error says only "must be in oneOf").
 *
 * Ajv applies a discriminator to objects only, and skips the oneOf it stands for: a string where
 * an owner goes would pass. Every branch is an object (its tag is a required property), so the
 * schema says so itself; `additionalProperties: true` (no change: the branches are closed on their
 * own) keeps strict mode's closing (closeObjects) from closing it as one object over its branches.
 *
 * A union with fields of its own, or closed by the document, is closed over its branches, which
 * needs the fields its branch evaluated; ajv's discriminator does not pass them on (a valid value
 * was refused in strict mode). Such a union stays a plain oneOf, as the document's unions were
 * before: none of today's has fields of its own.
 */
function asAjvDiscriminator(obj: JsonObject): void {
  const { mapping, ...discriminator } = obj.discriminator as JsonObject;
  const tag = discriminator.propertyName;
  if (typeof tag !== 'string' || obj.properties !== undefined || obj.unevaluatedProperties !== undefined) {
    delete obj.discriminator;
    return;
  }
  obj.discriminator = discriminator;
  obj.properties = { [tag]: { enum: Object.keys(mapping as JsonObject) } };
  obj.type ??= 'object';
  obj.additionalProperties ??= true;
}

// In-place applicators: their subschemas apply to the same object as the schema holding them,
// so the fields they evaluate count for that schema's `unevaluatedProperties`.
const BRANCHES = new Set(['allOf', 'anyOf', 'oneOf', 'then', 'else']);
// Conditions: subschemas that test the object rather than describe it. Closing one would
// change what it tests (a closed `not` would even accept more), so nothing inside is closed.
const CONDITIONS = new Set(['if', 'not']);
// Keywords whose value maps names to subschemas.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);

/**
 * Where a subschema sits: `free` (it describes a value of its own: a property, an item, a
 * component), `covered` (a branch of a closed schema, which already sees the fields the branch
 * evaluates) or `condition` (inside an `if` or a `not`).
 */
type Position = 'free' | 'covered' | 'condition';

/**
 * Strict mode: an object schema (typed `object`, with `properties`) that says nothing of other
 * fields gets `unevaluatedProperties: false`. Unlike `additionalProperties`, which sees only the
 * `properties` beside it, JSON Schema 2020-12's `unevaluatedProperties` also counts the fields
 * evaluated by the schema's in-place subschemas (allOf, anyOf, oneOf, if/then/else,
 * dependentSchemas, $ref), so a composed schema is closed as a whole and the document can write
 * its conditions and branches plainly (`if: {properties: …}`), without tricks to escape closing.
 *
 * Those subschemas are not closed themselves: a branch of a closed schema is covered by it (and,
 * closed to its own properties, would refuse the fields its parent declares), and conditions
 * are never closed. A branch of a schema that is not closed (a bare `oneOf` of object variants)
 * is closed on its own. A component is closed where it is defined, so every `$ref` to it gets
 * the closed form: `allOf: [{$ref: X}, {properties: …}]` cannot add fields to a closed X (the
 * document uses no allOf; see spec/README.md).
 */
export function closeObjects(node: Json): Json {
  return close(node, 'free');
}

function opensObject(obj: JsonObject): boolean {
  const isObjectType = obj.type === 'object' || (Array.isArray(obj.type) && obj.type.includes('object'));
  return isObjectType && isObject(obj.properties) && obj.additionalProperties === undefined && obj.unevaluatedProperties === undefined;
}

function close(node: Json, position: Position): Json {
  if (Array.isArray(node)) return node.map((item) => close(item, position));
  if (!isObject(node)) return node;
  const closes = position === 'free' && opensObject(node);
  // The position of this schema's branches: covered when this schema (or one it is a branch of) is closed.
  const branch: Position = closes || node.unevaluatedProperties === false || position === 'covered' ? 'covered' : 'free';
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYS.has(key)) copy[key] = value;
    else if (position === 'condition' || CONDITIONS.has(key)) copy[key] = close(value, 'condition');
    else if (BRANCHES.has(key)) copy[key] = close(value, branch);
    else if (key === 'dependentSchemas' && isObject(value)) copy[key] = mapValues(value, (sub) => close(sub, branch));
    // Maps of named subschemas: a property called `not` or `type` is not a keyword.
    else if (SCHEMA_MAPS.has(key) && isObject(value)) copy[key] = mapValues(value, (sub) => close(sub, 'free'));
    else copy[key] = close(value, 'free');
  }
  if (closes) copy.unevaluatedProperties = false;
  return copy;
}

function mapValues(map: JsonObject, f: (value: Json) => Json): JsonObject {
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, f(value)]));
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
