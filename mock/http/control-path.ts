// The one rule for telling the control API's paths from the service's: `/_mock` and everything
// below it (`/_mock/...`). A path that only begins with the same letters (`/_mockery`) is a
// service path: it gets the service's 404, faults, the journal and the rate limit like any other.
export const CONTROL_ROOT = '/_mock';

export function isControlPath(path: string): boolean {
  return path === CONTROL_ROOT || path.startsWith(`${CONTROL_ROOT}/`);
}

/** The first segment below `/_mock` (`journal` for `/_mock/journal/abc`); undefined for a service path or `/_mock` itself. */
export function controlSection(path: string): string | undefined {
  if (!path.startsWith(`${CONTROL_ROOT}/`)) return undefined;
  const rest = path.slice(CONTROL_ROOT.length + 1);
  const end = rest.indexOf('/');
  return end === -1 ? rest : rest.slice(0, end);
}
