// The one place a regular expression a user sends is compiled (verification's `matches`). A
// backtracking engine (JavaScript's RegExp) can take exponential time on a pattern such as
// `^(a+)+$`, and the mock runs on one thread: one careless pattern would stop every test sharing
// it. RE2 (the re2js port) matches in time linear in the text, and refuses what cannot be matched
// that way (backreferences, lookaround). See docs/decisions/0031-linear-time-patterns.md.
import { re2js } from '../lazy/modules';

/**
 * The largest compiled program accepted. Matching costs up to the program's size for each
 * character read, so this bounds the factor; patterns written by hand stay well under it
 * (a UUID is 40, `.{0,200}` 402), while `[a-z]{999}` (1,001) and `(a|aa){1000}` (6,002) are refused.
 */
export const PROGRAM_LIMIT = 1000;

/** A pattern the engine refused; `message` says why, for a 400 naming the field. */
export class PatternError extends Error {}

export interface UserPattern {
  /** Whether the pattern matches anywhere in the text (as RegExp's `test`). */
  test(text: string): boolean;
}

/** Compiles RE2 syntax (inline flags such as `(?i)` included); a PatternError when it cannot. */
export function compileUserPattern(source: string): UserPattern {
  const { RE2JS, RE2JSException } = re2js();
  let compiled: InstanceType<typeof RE2JS>;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const reason = error.message.replace(/^error parsing regexp: /, '');
    throw new PatternError(`not an RE2 regular expression (no backreferences or lookaround): ${reason}`);
  }
  const size = compiled.programSize();
  if (size > PROGRAM_LIMIT) {
    throw new PatternError(
      `too large: it compiles to ${size} instructions, at most ${PROGRAM_LIMIT} are allowed (use fewer or smaller repeat counts)`,
    );
  }
  return { test: (text) => compiled.test(text) };
}
