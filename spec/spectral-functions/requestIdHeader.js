// House rule fos-response-x-request-id. Seed: "Every response, success or error, carries
// X-Request-Id". Given: each path item (unresolved); checks every response of every
// operation, following $refs to components.responses and components.headers.
const { checkResponses, deref } = require('./_resolve.js');

module.exports = (pathItem, _options, context) =>
  checkResponses(pathItem, context, (method, status, response, doc) => {
    const headers = (response && response.headers) || {};
    const name = Object.keys(headers).find((h) => h.toLowerCase() === 'x-request-id');
    return name && deref(doc, headers[name])
      ? undefined
      : `${method.toUpperCase()} response ${status} must declare the X-Request-Id header.`;
  });
