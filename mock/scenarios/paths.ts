// Dotted paths with array indexes (`body.data[0].id`, `customer.accounts[1]`; `data.0.id` works
// too): parsed once, read from any JSON value, and printed back for messages.
export type Segment = string | number;

/** Segments of a path; throws on an empty segment or an unclosed bracket. */
export function parsePath(path: string): Segment[] {
  const segments: Segment[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '[') {
      const close = path.indexOf(']', i);
      const index = close === -1 ? '' : path.slice(i + 1, close);
      if (!/^\d+$/.test(index)) throw new Error(`"${path}" is not a path: [ must hold an index, e.g. [0]`);
      segments.push(Number(index));
      i = close + 1;
      if (path[i] === '.') i++;
      continue;
    }
    let end = i;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
    const name = path.slice(i, end);
    if (name === '') throw new Error(`"${path}" is not a path: empty name`);
    segments.push(name);
    i = path[end] === '.' ? end + 1 : end;
    if (path[end] === '.' && i === path.length) throw new Error(`"${path}" is not a path: it ends with a dot`);
  }
  if (segments.length === 0) throw new Error('an empty path');
  return segments;
}

export function getPath(root: unknown, segments: Segment[]): { found: boolean; value?: unknown } {
  let current: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : NaN;
      if (!(index >= 0 && index < current.length)) return { found: false };
      current = current[index];
    } else if (current !== null && typeof current === 'object' && typeof segment === 'string' && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

export function formatPath(segments: Segment[]): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}
