// What GET /_mock/journal filters by, and what verification reuses: a path given as a template
// (`/v1/operations/{operationId}`, the document's own form) or a pattern (`*`, `**`), a status or
// its class (`4xx`), a method, and a range of mock time. Pure: entries in, entries out.
import type { JournalEntry } from './journal';
import { pathGlob, withoutTrailingSlashes, type PathGlob } from './path-glob';

export interface JournalFilter {
  method?: string;
  path?: string;
  status?: string;
  /** Mock time, inclusive, as ISO instants. */
  from?: string;
  to?: string;
}

/**
 * A template's `{name}` stands for one segment, as `*` does: a template becomes a pattern. A
 * brace in a real path is percent-encoded, so no request path is misread.
 */
export function pathMatcher(pathOrTemplate: string): PathGlob {
  const glob = pathGlob(pathOrTemplate.replace(/\{[^/{}]*\}/g, '*'));
  return { test: (path) => glob.test(withoutTrailingSlashes(path)) };
}

/** `201` the status itself; `4xx` any status of that class. */
export function statusMatches(wanted: string, status: number): boolean {
  if (wanted.endsWith('xx')) return Math.floor(status / 100) === Number(wanted[0]);
  return status === Number(wanted);
}

/** A predicate for the filter; what is not given does not filter. */
export function journalFilter(filter: JournalFilter): (entry: JournalEntry) => boolean {
  const path = filter.path === undefined ? undefined : pathMatcher(filter.path);
  const method = filter.method?.toUpperCase();
  const from = filter.from === undefined ? undefined : Date.parse(filter.from);
  const to = filter.to === undefined ? undefined : Date.parse(filter.to);
  return (entry) => {
    if (method !== undefined && entry.method !== method) return false;
    if (path && !path.test(entry.path)) return false;
    if (filter.status !== undefined && !statusMatches(filter.status, entry.status)) return false;
    const at = Date.parse(entry.at);
    if (from !== undefined && at < from) return false;
    if (to !== undefined && at > to) return false;
    return true;
  };
}
