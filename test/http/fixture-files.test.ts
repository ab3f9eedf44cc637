// A fixture file that cannot be read, holds no JSON object, or lacks one of the collections, stops
// start-up with a message naming the file (and what it holds, or the missing collection).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { readFixtures } from '../../mock/services/fixtures';
import { demoFixtures } from './harness';

const dir = mkdtempSync(join(tmpdir(), 'fos-fixtures-'));

describe('reading a fixture file', () => {
  it('a missing file is refused naming the file and the cause', () => {
    const path = join(dir, 'absent.json');
    expect(() => readFixtures(path)).toThrow(`fos-mock: cannot read fixtures ${path}: ENOENT`);
  });

  it('a file that is not JSON is refused naming the file', () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{ not json');
    expect(() => readFixtures(path)).toThrow(new RegExp(`^fos-mock: cannot read fixtures ${path}: .*JSON`));
  });

  it('a file of JSON that is not an object (null, a list, a number, a string) is refused naming what it holds', () => {
    for (const [name, text, what] of [
      ['null', 'null', 'null'],
      ['list', '[]', 'a list'],
      ['number', '7', 'number'],
      ['string', '"demo"', 'string'],
    ] as const) {
      const path = join(dir, `${name}.json`);
      writeFileSync(path, text);
      expect(() => readFixtures(path)).toThrow(`fos-mock: fixtures ${path} must hold a JSON object, not ${what}`);
    }
  });

  it('a file lacking a collection is refused naming it', () => {
    for (const key of ['customers', 'accounts', 'accountReview', 'balances', 'beneficiaries', 'rates', 'assetScales'] as const) {
      const path = join(dir, `without-${key}.json`);
      const data: Record<string, unknown> = { ...demoFixtures() };
      delete data[key];
      writeFileSync(path, JSON.stringify(data));
      expect(() => readFixtures(path)).toThrow(`fos-mock: fixtures ${path} lack "${key}"`);
    }
  });

  it('a complete file is read as it is', () => {
    const path = join(dir, 'complete.json');
    writeFileSync(path, JSON.stringify(demoFixtures()));
    expect(readFixtures(path)).toEqual(demoFixtures());
  });
});
