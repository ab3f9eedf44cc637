// Tests that drive a real browser: describeWithChromium launches Debian's Chromium (or
// CHROMIUM_PATH) with playwright-core for the describe block and closes it afterwards. No
// browser is ever downloaded. Without Chromium the block fails in CI (CI must install it) and is
// skipped, with one loud line on stderr, on a developer's machine (test/support/required-tool.ts).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { describeWithTool } from '../../support/required-tool';
import { HANG_GUARD_MS } from '../../support/waits';

const DEFAULT_PATH = '/usr/bin/chromium';
/** A hang guard on the launch (Playwright waits for the browser to be ready; this long without it fails). */
const LAUNCH_TIMEOUT_MS = HANG_GUARD_MS;

/** Flags for a quiet, headless Chromium in a container: no sandbox, GPU, updates or sync. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** CHROMIUM_PATH when set, else /usr/bin/chromium; undefined when that file is not there. */
export function chromiumPath(): string | undefined {
  const path = process.env.CHROMIUM_PATH || DEFAULT_PATH;
  return existsSync(path) ? path : undefined;
}

export function describeWithChromium(name: string, body: (browser: () => Browser) => void): void {
  const executablePath = chromiumPath();
  const wanted = process.env.CHROMIUM_PATH || DEFAULT_PATH;
  describeWithTool(
    name,
    {
      name: 'Chromium',
      missing: `not found at ${wanted} (Debian package chromium, or set CHROMIUM_PATH)`,
      install: 'apt-get install chromium',
      found: executablePath !== undefined,
      start: () => chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS }),
      stop: (browser) => browser.close(),
      startTimeoutMs: LAUNCH_TIMEOUT_MS,
    },
    body,
  );
}
