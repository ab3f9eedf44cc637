// A request pattern of POST /_mock/journal/verify as verification checks over the journal's
// records: method, path (template or pattern), customer, status, body fields by JSON path, headers.
// Everything the pattern names is checked, in that order, so differences read the same way in
// every near miss. Bad input (a JSON path, a regular expression) is a 400 naming its field.
import type { JournalRecord } from './journal';
import { pathMatcher, statusMatches } from './journal-query';
import { parseJsonPath, valueAt, valueCheck, valueTest, type Check, type ValueMatch } from './verification';

export interface RequestPattern {
  method?: string;
  path?: string;
  customerId?: string;
  status?: string;
  body?: Array<ValueMatch & { path: string }>;
  headers?: Array<ValueMatch & { name: string }>;
}

/** A header as sent: several values read as one, comma-separated (RFC 9110 5.3). */
function headerValue(record: JournalRecord, name: string): string | undefined {
  const value = record.request?.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function requestChecks(pattern: RequestPattern): Array<Check<JournalRecord>> {
  const checks: Array<Check<JournalRecord>> = [];
  const { method, path, customerId, status } = pattern;
  if (method !== undefined && method !== '*') {
    const wanted = method.toUpperCase();
    checks.push(({ entry }) => (entry.method === wanted ? undefined : { field: 'method', expected: wanted, actual: entry.method }));
  }
  if (path !== undefined) {
    const glob = pathMatcher(path);
    checks.push(({ entry }) => (glob.test(entry.path) ? undefined : { field: 'path', expected: path, actual: entry.path }));
  }
  if (customerId !== undefined)
    checks.push(({ entry }) =>
      entry.customerId === customerId
        ? undefined
        : { field: 'customerId', expected: customerId, ...(entry.customerId ? { actual: entry.customerId } : {}) },
    );
  if (status !== undefined)
    checks.push(({ entry }) =>
      statusMatches(status, entry.status) ? undefined : { field: 'status', expected: status, actual: entry.status },
    );
  (pattern.body ?? []).forEach((match, i) => {
    const steps = parseJsonPath(match.path, `body.request.body[${i}].path`);
    checks.push(
      valueCheck(`body.${match.path}`, (record) => valueAt(record.request?.body, steps), valueTest(match, `body.request.body[${i}]`)),
    );
  });
  (pattern.headers ?? []).forEach((match, i) => {
    const name = match.name.toLowerCase();
    checks.push(valueCheck(`headers.${name}`, (record) => headerValue(record, name), valueTest(match, `body.request.headers[${i}]`)));
  });
  return checks;
}

/** The pattern in a few words, for the verdict's message: `POST /v1/quotes of customer …`. */
export function describeRequest(pattern: RequestPattern): string {
  const parts = [pattern.method && pattern.method !== '*' ? pattern.method.toUpperCase() : 'any method', pattern.path ?? 'any path'];
  if (pattern.customerId) parts.push(`of customer ${pattern.customerId}`);
  if (pattern.status) parts.push(`answered ${pattern.status}`);
  const more = (pattern.body?.length ?? 0) + (pattern.headers?.length ?? 0);
  if (more > 0) parts.push(`with ${more} body/header condition${more === 1 ? '' : 's'}`);
  return parts.join(' ');
}
