// The inspector's weight: what a browser downloads for the page (one script, one style sheet),
// compressed as the mock sends them. A budget, not a timing: the page must stay small enough to
// load at once from a CI artifact link or over a slow tunnel.
import { describe, expect, it } from '@jest/globals';
import { bundleNow } from '../../mock/inspector/bundle';

/** Budgets (gzip): Preact and our views fit well inside; a UI kit or a charting library would not. */
const SCRIPT_BUDGET = 40 * 1024;
const STYLE_BUDGET = 8 * 1024;

describe('the inspector page', () => {
  it('weighs under its budget, compressed: the script under 40 KiB and the style sheet under 8 KiB', async () => {
    const bundle = await bundleNow();
    const script = bundle['app.js'];
    const style = bundle['app.css'];
    console.log(
      `[inspector] app.js ${(script.body.length / 1024).toFixed(1)} KiB (${(script.gzip.length / 1024).toFixed(1)} KiB gzip), ` +
        `app.css ${(style.body.length / 1024).toFixed(1)} KiB (${(style.gzip.length / 1024).toFixed(1)} KiB gzip)`,
    );
    expect(script.gzip.length).toBeLessThan(SCRIPT_BUDGET);
    expect(style.gzip.length).toBeLessThan(STYLE_BUDGET);
  });

  it('fetches nothing from elsewhere: no absolute URL to another origin in the script or the style sheet', async () => {
    const bundle = await bundleNow();
    for (const asset of [bundle['app.js'], bundle['app.css']]) {
      const text = asset.body.toString('utf8');
      // A link the page only shows (the service document's address) would be text, not a load;
      // what matters is that nothing is imported or loaded from an origin other than the mock's.
      expect(text).not.toMatch(/(?:import|url\(|src=)\s*["']?https?:\/\//);
    }
  });
});
