// Fault path patterns: `*` stands for any characters within a segment, `**` for any characters
// across segments. Matched by walking the path once while keeping the set of pattern positions
// it could have reached (a Thompson-style simulation), so the time is at most the path's length
// times the pattern's, whatever the pattern: a regular expression built from the pattern
// backtracked, and `/*a*a*a*a*a*a*a*ab` held the whole server for seconds on a 42-character path.

type Token = { kind: 'char'; char: string } | { kind: 'segment' } | { kind: 'any' };

export interface PathGlob {
  test(path: string): boolean;
}

/** A path without its trailing slashes (`/` stays `/`), by a loop: no regular expression over request input. */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

export function pathGlob(pattern: string): PathGlob {
  const tokens = tokenize(withoutTrailingSlashes(pattern));
  return { test: (path) => matches(tokens, path) };
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '*') tokens.push({ kind: 'char', char: pattern[i]! });
    else if (pattern[i + 1] === '*') {
      tokens.push({ kind: 'any' });
      // `***` and longer are `**`: any run of stars across segments.
      while (pattern[i + 1] === '*') i++;
    } else tokens.push({ kind: 'segment' });
  }
  return tokens;
}

function matches(tokens: Token[], path: string): boolean {
  // reached[i]: the path read so far can be matched by the first i tokens.
  const start = new Uint8Array(tokens.length + 1);
  start[0] = 1;
  let reached = spread(tokens, start);
  for (let at = 0; at < path.length; at++) {
    const char = path[at];
    const next = new Uint8Array(tokens.length + 1);
    let any = false;
    for (let i = 0; i < tokens.length; i++) {
      if (!reached[i]) continue;
      const token = tokens[i]!;
      // A wildcard takes the character and stays; a literal takes it and moves on.
      if (token.kind === 'any' || (token.kind === 'segment' && char !== '/')) next[i] = 1;
      else if (token.kind === 'char' && token.char === char) next[i + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    reached = spread(tokens, next);
  }
  return reached[tokens.length] === 1;
}

/** A wildcard may also take nothing: a position reached before one reaches the position after it. */
function spread(tokens: Token[], reached: Uint8Array): Uint8Array {
  for (let i = 0; i < tokens.length; i++) if (reached[i] && tokens[i]!.kind !== 'char') reached[i + 1] = 1;
  return reached;
}
