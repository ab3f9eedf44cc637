// House rule fos-error-response-schema. Seed: "Error responses have the Error body shape".
// Given: each path item (unresolved); every 4xx / 5xx response (after following its $ref
// into components.responses) must have content whose schema is
// `$ref: '#/components/schemas/Error'` in every media type.
const { checkResponses } = require('./_resolve.js');

const ERROR_REF = '#/components/schemas/Error';

module.exports = (pathItem, _options, context) =>
  checkResponses(pathItem, context, (method, status, response) => {
    if (!/^[45]/.test(status)) return undefined;
    const content = response && response.content;
    const mediaTypes = content && typeof content === 'object' ? Object.entries(content) : [];
    const bad = mediaTypes.length === 0 || mediaTypes.some(([, media]) => !media || !media.schema || media.schema.$ref !== ERROR_REF);
    return bad ? `${method.toUpperCase()} response ${status} must have a body whose schema is $ref '${ERROR_REF}'.` : undefined;
  });
