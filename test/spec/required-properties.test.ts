// Every name in a schema's `required` list is a property the schema declares: itself, through its
// allOf (any branch) or anyOf / oneOf (every branch), or, for a subschema that applies to the same
// object (a branch or a condition: allOf, anyOf, oneOf, if, then, else, not, dependentSchemas),
// through the schema that holds it. A misspelt name is caught here.
//
// This stands in for Redocly's `no-required-schema-properties-undefined`, which redocly.yaml turns
// off: that rule looks for the enclosing schema only through allOf / anyOf / oneOf, so it reports
// `else: {required: [resources]}` (SubscriptionCreate) and `not: {required: [error, drop]}`
// (FaultCreate in the control document), whose names the enclosing object declares.
import { describe, expect, it } from '@jest/globals';
import { isObject, loadDocument, pointer, type Json, type JsonObject, type OpenApiDocument } from '../../spec/contract/document';
import { projectPath } from '../../spec/project-root';

const DOCUMENTS = [projectPath('spec', 'openapi.yaml'), projectPath('spec', 'control-openapi.yaml')];

// Keywords whose subschemas apply to the same object as the schema holding them.
const IN_PLACE_ONE = ['if', 'then', 'else', 'not'];
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'];
// Keywords whose subschemas describe other values (a property, an item, a map entry).
const OTHER_ONE = ['items', 'contains', 'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'unevaluatedItems'];
const OTHER_LIST = ['prefixItems'];
const OTHER_MAP = ['properties', 'patternProperties', '$defs'];

function resolve(doc: OpenApiDocument, schema: Json, seen = new Set<string>()): JsonObject | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.$ref !== 'string') return schema;
  if (seen.has(schema.$ref)) return undefined;
  seen.add(schema.$ref);
  return resolve(doc, pointer(doc, schema.$ref), seen);
}

/** Whether `schema` declares property `name` itself or through its composition. */
function declares(doc: OpenApiDocument, raw: Json, name: string, depth = 0): boolean {
  const schema = resolve(doc, raw);
  if (!schema || depth > 20) return false;
  if (isObject(schema.properties) && name in schema.properties) return true;
  const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
  if (patterns.some((pattern) => new RegExp(pattern, 'u').test(name))) return true;
  const branches = (key: string): Json[] => {
    const value = schema[key];
    return Array.isArray(value) ? value : [];
  };
  if (branches('allOf').some((branch) => declares(doc, branch, name, depth + 1))) return true;
  return ['anyOf', 'oneOf'].some(
    (key) => branches(key).length > 0 && branches(key).every((branch) => declares(doc, branch, name, depth + 1)),
  );
}

/** The subschemas of a schema, by keyword, each with its path and whether it applies to the same object. */
function subschemas(schema: JsonObject, where: string): Array<{ sub: Json; where: string; inPlace: boolean }> {
  const out: Array<{ sub: Json; where: string; inPlace: boolean }> = [];
  const add = (keys: string[], inPlace: boolean, shape: 'one' | 'list' | 'map') => {
    for (const key of keys) {
      const value = schema[key];
      if (value === undefined) continue;
      if (shape === 'one') out.push({ sub: value, where: `${where}/${key}`, inPlace });
      else if (shape === 'list' && Array.isArray(value))
        value.forEach((sub, i) => out.push({ sub, where: `${where}/${key}/${i}`, inPlace }));
      else if (shape === 'map' && isObject(value))
        for (const [name, sub] of Object.entries(value)) out.push({ sub, where: `${where}/${key}/${name}`, inPlace });
    }
  };
  add(IN_PLACE_ONE, true, 'one');
  add(IN_PLACE_LIST, true, 'list');
  add(['dependentSchemas'], true, 'map');
  add(OTHER_ONE, false, 'one');
  add(OTHER_LIST, false, 'list');
  add(OTHER_MAP, false, 'map');
  return out;
}

/** Each `required` name no schema declares, as `where: name`. */
function undeclared(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  const visit = (schema: Json, where: string, holders: Json[]) => {
    if (!isObject(schema) || typeof schema.$ref === 'string') return;
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const name of required) {
      if (typeof name === 'string' && ![schema, ...holders].some((s) => declares(doc, s, name))) problems.push(`${where}: ${name}`);
    }
    for (const { sub, where: at, inPlace } of subschemas(schema, where)) visit(sub, at, inPlace ? [schema, ...holders] : []);
  };
  // Schemas sit under components.schemas and under every `schema` key (media types, parameters, headers).
  const findSchemas = (node: Json, where: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => findSchemas(item, `${where}/${i}`));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') continue;
      if (key === 'schema') visit(value, `${where}/schema`, []);
      else if (key === 'schemas' && where === '#/components' && isObject(value)) {
        for (const [name, schema] of Object.entries(value)) visit(schema, `${where}/schemas/${name}`, []);
      } else findSchemas(value, `${where}/${key}`);
    }
  };
  findSchemas(doc, '#');
  return problems;
}

describe('required properties', () => {
  it.each(DOCUMENTS)('%s: every required name is a declared property', (path) => {
    expect(undeclared(loadDocument(path))).toEqual([]);
  });

  it('reports a misspelt name, and a name only a sibling branch declares', () => {
    const doc = loadDocument(DOCUMENTS[0]);
    const schemas = doc.components.schemas as Record<string, JsonObject>;
    schemas.Account!.required = [...(schemas.Account!.required as string[]), 'ownr'];
    (schemas.SubscriptionCreate!.else as JsonObject).required = ['resourecs'];
    schemas.QuoteCreate!.oneOf = [
      { required: ['sourceAmount'] },
      { required: ['targetAmount'], properties: { otherAmount: {} } },
      { required: ['otherAmount'] },
    ];
    expect(undeclared(doc)).toEqual([
      '#/components/schemas/Account: ownr',
      '#/components/schemas/QuoteCreate/oneOf/2: otherAmount',
      '#/components/schemas/SubscriptionCreate/else: resourecs',
    ]);
  });
});
