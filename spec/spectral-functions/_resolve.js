// Shared helper for the house rules (not a rule function itself: it is not listed under
// `functions` in spec/spectral.yaml). The rules run with `resolved: false` so they can see
// `$ref` strings; this follows local refs ('#/...') in the unresolved document when a
// rule needs the target.

/** Decode one JSON Pointer segment (RFC 6901). */
const decode = (segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');

/** Follow `$ref` chains within the document; returns the target, or undefined when it is not local or missing. */
function deref(doc, node, seen = new Set()) {
  let current = node;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (!ref.startsWith('#') || seen.has(ref)) return undefined;
    seen.add(ref);
    let target = doc;
    for (const segment of ref
      .slice(1)
      .split('/')
      .filter((s) => s !== '')) {
      if (target === null || typeof target !== 'object') return undefined;
      target = target[decode(segment)];
    }
    current = target;
  }
  return current;
}

/** All parameters of an operation: path-level ones overridden by operation-level ones (by in + lower-cased name). */
function operationParameters(doc, pathItem, operation) {
  const byKey = new Map();
  for (const list of [pathItem && pathItem.parameters, operation && operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = deref(doc, raw);
      if (!param || typeof param.name !== 'string') continue;
      byKey.set(`${param.in}:${param.name.toLowerCase()}`, { raw, param });
    }
  }
  return [...byKey.values()];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Calls `problem(method, status, response)` for every response of every operation of a path
 * item (the response after following its $ref); each non-empty message it returns becomes a
 * Spectral result pointing at that response.
 */
function checkResponses(pathItem, context, problem) {
  const doc = context.document.data;
  const results = [];
  if (!pathItem || typeof pathItem !== 'object') return results;
  for (const method of HTTP_METHODS) {
    const operation = pathItem[method];
    if (!operation || typeof operation !== 'object' || !operation.responses) continue;
    for (const [status, rawResponse] of Object.entries(operation.responses)) {
      const message = problem(method, status, deref(doc, rawResponse), doc);
      if (message) results.push({ message, path: [...context.path, method, 'responses', status] });
    }
  }
  return results;
}

module.exports = { deref, operationParameters, checkResponses, HTTP_METHODS };
