// The one rule that tells a control path from a service path (mock/http/control-path.ts).
import { describe, expect, it } from '@jest/globals';
import { controlSection, isControlPath } from '../../mock/http/control-path';

describe('telling a control path from a service path', () => {
  it('/_mock and every path below it are control paths', () => {
    for (const path of ['/_mock', '/_mock/', '/_mock/health', '/_mock/journal/abc'])
      expect([path, isControlPath(path)]).toEqual([path, true]);
  });

  it('a path that only begins with the same letters, or has /_mock further down, is a service path', () => {
    for (const path of ['/_mockery', '/_mock-x/health', '/_moc', '/api/_mock', '/', ''])
      expect([path, isControlPath(path)]).toEqual([path, false]);
  });

  it('the section of a control path is its first segment below /_mock; a service path has none', () => {
    expect(controlSection('/_mock/journal/abc')).toBe('journal');
    expect(controlSection('/_mock/state')).toBe('state');
    expect(controlSection('/_mock/')).toBe('');
    expect(controlSection('/_mock')).toBeUndefined();
    expect(controlSection('/_mockery/journal')).toBeUndefined();
  });
});
