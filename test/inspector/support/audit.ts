// What the accessibility test and the screenshots need: axe-core run inside the page (injected
// from node_modules, nothing fetched), and where screenshots go (docs/inspector/ when
// INSPECTOR_SCREENSHOTS=1, else a temporary directory, so `npm test` leaves the tree clean).
import { mkdtempSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { projectPath } from '../../../spec/project-root';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The violations axe-core finds on the page as it stands, serious and critical ones only. */
export async function seriousViolations(page: Page): Promise<Result[]> {
  const injected = await page.evaluate(() => 'axe' in globalThis);
  if (!injected) await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run());
  return results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** One line per violation and element, for a readable failure. */
export function describeViolations(violations: Result[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${violation.help} at ${node.target.join(' ')}`),
  );
}

let directory: string | undefined;

/** Where this run writes its screenshots. */
export function screenshotDirectory(): string {
  if (!directory) {
    if (process.env.INSPECTOR_SCREENSHOTS === '1') {
      directory = projectPath('docs', 'inspector');
      mkdirSync(directory, { recursive: true });
    } else {
      directory = mkdtempSync(join(tmpdir(), 'fos-inspector-'));
    }
  }
  return directory;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(screenshotDirectory(), `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
