// The house Spectral rules can fail: a copy of the document broken in four ways is reported
// by each of the four rules (the real document passing is `npm run lint:spec`).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { projectPath } from '../../spec/project-root';

function breakOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`cannot find ${JSON.stringify(from)} to break`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

describe('the house ruleset', () => {
  it('reports a lost X-Request-Id, a non-Error 4xx body, a missing idempotency header and a list without pagination', async () => {
    let text = readFileSync(projectPath('spec', 'openapi.yaml'), 'utf8');
    text = breakOnce(
      text,
      "        X-Request-Id:\n          $ref: '#/components/headers/XRequestId'",
      "        X-Other:\n          $ref: '#/components/headers/XRequestId'",
    );
    text = breakOnce(text, "$ref: '#/components/schemas/Error'", "$ref: '#/components/schemas/Amount'");
    text = breakOnce(text, "        - $ref: '#/components/parameters/XIdempotencyKey'\n", '');
    text = breakOnce(text, "        - $ref: '#/components/parameters/Limit'\n", '');
    const dir = mkdtempSync(join(tmpdir(), 'fos-rules-'));
    try {
      const broken = join(dir, 'openapi.yaml');
      writeFileSync(broken, text);
      const spectral = projectPath('node_modules', '.bin', 'spectral');
      const output = await promisify(execFile)(
        spectral,
        ['lint', broken, '--ruleset', projectPath('spec', 'spectral.yaml'), '--format', 'json', '--quiet'],
        { maxBuffer: 1 << 24 },
      ).then(
        (r) => r.stdout,
        (e: { stdout: string }) => e.stdout,
      );
      const codes = new Set((JSON.parse(output) as Array<{ code: string }>).map((r) => r.code));
      expect([...codes]).toEqual(
        expect.arrayContaining(['fos-response-x-request-id', 'fos-error-response-schema', 'fos-idempotency-key', 'fos-list-pagination']),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
