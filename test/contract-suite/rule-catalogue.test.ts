// The rule catalogue holds together: every rule id a contract test or a deliberate break names is
// in the catalogue, and every rule of the catalogue has a test that carries its tag and a break
// that declares it. (Whether the tests really fail under the break is the breaks run's question,
// and `npm run rules:table` fails on a rule whose tests do not.)
import { describe, expect, it } from '@jest/globals';
import { RULES } from '../../contract-tests/rules/catalogue';
import { taggedTests } from '../../contract-tests/rules/tags';
import { BREAKS } from '../../scripts/contract/breaks';

const ids: string[] = RULES.map((r) => r.id);
const tests = taggedTests();

describe('the rule catalogue', () => {
  it('When the rules are listed, then each id is unique and well formed, with a source and a statement', () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/);
      expect(rule.source).toMatch(/^(Spec|DESIGN): /);
      expect(rule.statement.length).toBeGreaterThan(10);
    }
  });

  it('When the contract tests are read, then every rule id in a tag is in the catalogue', () => {
    expect(tests.length).toBeGreaterThan(0);
    const unknown = tests.flatMap((t) => t.rules.filter((id) => !ids.includes(id)).map((id) => `${t.file}: ${id}`));
    expect(unknown).toEqual([]);
  });

  it('When the breaks are read, then each has a unique id and declares at least one catalogue rule', () => {
    expect(new Set(BREAKS.map((b) => b.id)).size).toBe(BREAKS.length);
    for (const brk of BREAKS) {
      expect(brk.rules.length).toBeGreaterThan(0);
      for (const id of brk.rules) expect(ids).toContain(id);
    }
  });

  it('When a rule is in the catalogue, then at least one contract test checks it and one break breaks it', () => {
    const untested = ids.filter((id) => !tests.some((t) => t.rules.includes(id)));
    const unbroken = ids.filter((id) => !BREAKS.some((b) => (b.rules as string[]).includes(id)));
    expect({ untested, unbroken }).toEqual({ untested: [], unbroken: [] });
  });
});
