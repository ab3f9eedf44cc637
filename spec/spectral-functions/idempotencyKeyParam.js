// House rule fos-idempotency-key. Seed: "X-Idempotency-Key (uuid) is required on every POST,
// PUT and PATCH except the token request." Given: each path item (unresolved); every
// post/put/patch other than operationId createToken must take a required header parameter
// named X-Idempotency-Key (inline, or by $ref, normally to components.parameters.XIdempotencyKey).
const { operationParameters } = require('./_resolve.js');

const EXEMPT_OPERATION_IDS = new Set(['createToken']);

module.exports = (pathItem, _options, context) => {
  const doc = context.document.data;
  const results = [];
  if (!pathItem || typeof pathItem !== 'object') return results;
  for (const method of ['post', 'put', 'patch']) {
    const operation = pathItem[method];
    if (!operation || typeof operation !== 'object') continue;
    if (EXEMPT_OPERATION_IDS.has(operation.operationId)) continue;
    const found = operationParameters(doc, pathItem, operation).some(
      ({ param }) => param.in === 'header' && param.name.toLowerCase() === 'x-idempotency-key' && param.required === true,
    );
    if (!found) {
      const message =
        `${method.toUpperCase()} ${operation.operationId || ''} must take the required X-Idempotency-Key header ` +
        "($ref '#/components/parameters/XIdempotencyKey').";
      results.push({ message: message.replace('  ', ' '), path: [...context.path, method] });
    }
  }
  return results;
};
