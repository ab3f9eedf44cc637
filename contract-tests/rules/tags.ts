// How a contract test says which rules it checks: their ids in brackets at the end of its title,
// "When a quote is used twice, then … [QUOTE-CONSUMED-ONCE]". The title keeps reading as a
// scenario, and the tag travels with the test's name into jest's results, so a failure under a
// break names the rules it speaks for. Read from the test files' text (no test has to run).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An id: capitals and digits in two or more dash-joined parts (AUTH-REQUIRED-401). */
const ID = '[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+';
/** A tag at the end of a title: "[ID]" or "[ID, ID]". */
const TAG = new RegExp(`\\[(${ID}(?:, ${ID})*)\\]`);

/** The rule ids a test title (or a full test name) carries. */
export function rulesOf(title: string): string[] {
  return TAG.exec(title)?.[1]?.split(', ') ?? [];
}

export interface TaggedTest {
  /** The test file, relative to contract-tests/. */
  file: string;
  /** The title as written, with its tag (%s placeholders of a test table left as they are). */
  title: string;
  rules: string[];
}

/** Every tagged title in the contract test files of `dir` (contract-tests/ by default). */
export function taggedTests(dir = join(__dirname, '..')): TaggedTest[] {
  // A title literal ending in a tag, with the literals joined to it by `+` before (long titles are
  // split to keep lines short).
  const part = "'[^'\\n]*'";
  const title = new RegExp(`(?:${part}\\s*\\+\\s*)*'[^'\\n]*\\[${ID}(?:, ${ID})*\\]'`, 'g');
  const out: TaggedTest[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const [joined] of text.matchAll(title)) {
      const whole = [...joined.matchAll(/'([^'\n]*)'/g)].map((m) => m[1]).join('');
      out.push({ file, title: whole, rules: rulesOf(whole) });
    }
  }
  return out;
}
