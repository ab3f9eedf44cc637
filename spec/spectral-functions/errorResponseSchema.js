// House rule fos-error-response-schema. Seed: "Error responses have the Error body shape".
// Given: each path item (unresolved); every 4xx / 5xx response (after following its $ref
// into components.responses) must have content whose schema is
// `$ref: '#/components/schemas/Error'` in every media type.
const { deref, HTTP_METHODS } = require('./_resolve.js');

const ERROR_REF = '#/components/schemas/Error';

module.exports = (pathItem, _options, context) => {
  const doc = context.document.data;
  const results = [];
  if (!pathItem || typeof pathItem !== 'object') return results;
  for (const method of HTTP_METHODS) {
    const operation = pathItem[method];
    if (!operation || typeof operation !== 'object' || !operation.responses) continue;
    for (const [status, rawResponse] of Object.entries(operation.responses)) {
      if (!/^[45]/.test(status)) continue;
      const response = deref(doc, rawResponse);
      const content = response && response.content;
      const mediaTypes = content && typeof content === 'object' ? Object.entries(content) : [];
      const bad =
        mediaTypes.length === 0 ||
        mediaTypes.some(([, media]) => !media || !media.schema || media.schema.$ref !== ERROR_REF);
      if (bad) {
        results.push({
          message: `${method.toUpperCase()} response ${status} must have a body whose schema is $ref '${ERROR_REF}'.`,
          path: [...context.path, method, 'responses', status],
        });
      }
    }
  }
  return results;
};
