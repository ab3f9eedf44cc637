// Partial deep matching of an expectation against an answer: every key the expectation names
// must be there with a matching value (others are ignored); an array matches an array of the
// same length item by item; anything else must be equal, type included ("150.00" is not 150).
export interface Difference {
  /** Where, e.g. `body.data[1].status`. */
  path: string;
  expected: unknown;
  actual: unknown;
  /** Set when the difference is not a plain value mismatch. */
  note?: string;
}

const MISSING = Symbol('missing');

export function partialMatch(expected: unknown, actual: unknown, path = ''): Difference[] {
  if (actual === MISSING) return [{ path, expected, actual: undefined, note: 'missing' }];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, expected, actual, note: 'expected an array' }];
    const differences: Difference[] = [];
    if (actual.length !== expected.length)
      differences.push({ path, expected: expected.length, actual: actual.length, note: 'array length' });
    expected.forEach((item, i) => {
      differences.push(...partialMatch(item, i < actual.length ? actual[i] : MISSING, `${path}[${i}]`));
    });
    return differences;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return [{ path, expected, actual, note: 'expected an object' }];
    return Object.entries(expected).flatMap(([key, item]) => {
      const child = path ? `${path}.${key}` : key;
      return partialMatch(item, Object.hasOwn(actual, key) ? (actual as Record<string, unknown>)[key] : MISSING, child);
    });
  }
  return Object.is(expected, actual) ? [] : [{ path, expected, actual }];
}

function json(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** One line per difference (joined by newlines): `body.currentState.status: expected "COMPLETED", got "REQUESTED"`. */
export function describeDifferences(differences: Difference[], limit = 5): string {
  const lines = differences.slice(0, limit).map((d) => {
    const where = d.path || '(the value)';
    if (d.note === 'missing') return `${where}: expected ${json(d.expected)}, but it is missing`;
    if (d.note === 'array length') return `${where}: expected ${json(d.expected)} items, got ${json(d.actual)}`;
    if (d.note) return `${where}: ${d.note} ${json(d.expected)}, got ${json(d.actual)}`;
    return `${where}: expected ${json(d.expected)}, got ${json(d.actual)}`;
  });
  if (differences.length > limit) lines.push(`... and ${differences.length - limit} more`);
  return lines.join('\n');
}
