// House rule fos-list-pagination. Seed: "All list endpoints use cursor pagination" with
// limit, cursor, direction and sortOrder, answering { data: array, meta: Page metadata }.
// Given: each path item (unresolved). A GET is a list operation when its operationId starts
// with `list` or its 200 schema has a `data` array. It must take the four query parameters,
// and its 200 schema must be an object requiring `data` (an array) and `meta`
// ($ref '#/components/schemas/PageMeta').
const { deref, operationParameters } = require('./_resolve.js');

const PAGE_PARAMS = ['limit', 'cursor', 'direction', 'sortOrder'];
const PAGE_META_REF = '#/components/schemas/PageMeta';

function okSchema(doc, operation) {
  const response = deref(doc, operation.responses && operation.responses['200']);
  const media = response && response.content && response.content['application/json'];
  return media && deref(doc, media.schema);
}

module.exports = (pathItem, _options, context) => {
  const doc = context.document.data;
  const operation = pathItem && pathItem.get;
  if (!operation || typeof operation !== 'object') return [];
  const schema = okSchema(doc, operation);
  const dataSchema = schema && schema.properties && deref(doc, schema.properties.data);
  const isList =
    (typeof operation.operationId === 'string' && operation.operationId.startsWith('list')) || (dataSchema && dataSchema.type === 'array');
  if (!isList) return [];

  const results = [];
  const where = [...context.path, 'get'];
  const name = operation.operationId || 'GET';
  const query = new Set(
    operationParameters(doc, pathItem, operation)
      .filter(({ param }) => param.in === 'query')
      .map(({ param }) => param.name),
  );
  const missing = PAGE_PARAMS.filter((p) => !query.has(p));
  if (missing.length > 0) {
    results.push({ message: `List operation ${name} lacks query parameter(s) ${missing.join(', ')}.`, path: where });
  }

  const required = (schema && Array.isArray(schema.required) && schema.required) || [];
  const meta = schema && schema.properties && schema.properties.meta;
  const problems = [];
  if (!schema || schema.type !== 'object') problems.push('is not an object');
  if (!required.includes('data') || !required.includes('meta')) problems.push('does not require data and meta');
  if (!dataSchema || dataSchema.type !== 'array') problems.push('has no `data` array');
  if (!meta || meta.$ref !== PAGE_META_REF) problems.push(`has no \`meta\` with $ref '${PAGE_META_REF}'`);
  if (problems.length > 0) {
    results.push({ message: `List operation ${name}: its 200 schema ${problems.join(', ')}.`, path: [...where, 'responses', '200'] });
  }
  return results;
};
