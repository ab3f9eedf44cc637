// Tests that drive a real browser: describeWithChromium launches Debian's Chromium (or
// CHROMIUM_PATH) with playwright-core for the describe block and closes it afterwards. No
// browser is ever downloaded. Without Chromium the block fails in CI (CI must install it) and is
// skipped, with one loud line on stderr, on a developer's machine (the shape of redis-suite.ts).
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const DEFAULT_PATH = '/usr/bin/chromium';
const LAUNCH_TIMEOUT_MS = 30_000;

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

function inCI(): boolean {
  const ci = (process.env.CI ?? '').toLowerCase();
  return ci === 'true' || ci === '1';
}

/** CHROMIUM_PATH when set, else /usr/bin/chromium; undefined when that file is not there. */
export function chromiumPath(): string | undefined {
  const path = process.env.CHROMIUM_PATH || DEFAULT_PATH;
  return existsSync(path) ? path : undefined;
}

export function describeWithChromium(name: string, body: (browser: () => Browser) => void): void {
  const executablePath = chromiumPath();
  if (executablePath === undefined) {
    const wanted = process.env.CHROMIUM_PATH || DEFAULT_PATH;
    if (inCI()) {
      describe(name, () => {
        it('has the Chromium it needs (required in CI)', () => {
          throw new Error(
            `${name} needs Chromium, which is required in CI and was not found at ${wanted}: install it (apt-get install chromium)`,
          );
        });
      });
      return;
    }
    process.stderr.write(
      `SKIPPED: ${name}: chromium not installed (looked for ${wanted}; Debian package chromium, or set CHROMIUM_PATH)\n`,
    );
    describe.skip(name, () =>
      body(() => {
        throw new Error('chromium is not installed');
      }),
    );
    return;
  }

  describe(name, () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS });
    }, LAUNCH_TIMEOUT_MS);
    afterAll(async () => {
      await browser?.close();
    });
    body(() => {
      if (!browser) throw new Error('Chromium has not started (see the beforeAll failure)');
      return browser;
    });
  });
}
