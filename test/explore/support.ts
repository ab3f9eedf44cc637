// What the explore tests share: a mock with one deliberate break of scripts/contract/breaks applied
// (as `npm run test:contract:breaks` and scripts/explore/break-catching.ts apply it, without
// touching the mock's source), and a fresh temporary folder for written scenarios and reports.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockApp } from '../../mock/app';
import type { Config } from '../../mock/config';
import { BREAKS } from '../../scripts/contract/breaks/index';
import { startMock, type RunningMock } from '../../scripts/contract/lib';

/** The mock with the break `id`; responses not validated, so the break's answers go out as they are. */
export async function brokenMock(id: string, config: Partial<Config> = {}): Promise<RunningMock> {
  const brk = BREAKS.find((b) => b.id === id);
  if (!brk) throw new Error(`no break "${id}" in scripts/contract/breaks`);
  const started: { mock?: MockApp } = {};
  const options =
    brk.options?.(() => {
      if (!started.mock) throw new Error(`break ${id}: the mock is not running yet`);
      return started.mock;
    }) ?? {};
  const running = await startMock(
    { ...options, config: { strictResponses: false, logLevel: 'silent', ...config, ...options.config } },
    brk.wrap,
  );
  started.mock = running.mock;
  brk.after?.(running.mock);
  return running;
}

export function tempFolder(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `fos-explore-${prefix}-`));
}
