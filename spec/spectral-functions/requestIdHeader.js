// House rule fos-response-x-request-id. Seed: "Every response, success or error, carries
// X-Request-Id". Given: each path item (unresolved); checks every response of every
// operation, following $refs to components.responses and components.headers.
const { deref, HTTP_METHODS } = require('./_resolve.js');

module.exports = (pathItem, _options, context) => {
  const doc = context.document.data;
  const results = [];
  if (!pathItem || typeof pathItem !== 'object') return results;
  for (const method of HTTP_METHODS) {
    const operation = pathItem[method];
    if (!operation || typeof operation !== 'object' || !operation.responses) continue;
    for (const [status, rawResponse] of Object.entries(operation.responses)) {
      const response = deref(doc, rawResponse);
      const headers = (response && response.headers) || {};
      const name = Object.keys(headers).find((h) => h.toLowerCase() === 'x-request-id');
      const header = name && deref(doc, headers[name]);
      if (!header) {
        results.push({
          message: `${method.toUpperCase()} response ${status} must declare the X-Request-Id header.`,
          path: [...context.path, method, 'responses', status],
        });
      }
    }
  }
  return results;
};
