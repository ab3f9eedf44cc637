// The inspector's page: one script and one style sheet, bundled by esbuild from app/ (Preact and
// the page's own modules; no CDN, nothing fetched from elsewhere at run time). `npm run build`
// writes them beside this module's compiled copy (dist/mock/inspector/public/); a mock run from
// source (the tests, tsx) bundles them in memory on first use instead. Each is kept with its gzip
// form, so the page weighs what it weighs compressed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { projectPath } from '../../spec/project-root';
import { esbuild } from '../lazy/modules';

/** The page's source (a clone; the installed package has none). */
export const ENTRY = projectPath('mock', 'inspector', 'app', 'main.tsx');
/** Where `npm run build` writes the bundle: beside the compiled module (dist/mock/inspector/public/). */
export const BUILT = join(__dirname, 'public');
/** Compiled (dist/, the package) reads the built bundle; run from source, the source is bundled. */
const COMPILED = __filename.endsWith('.js');

export interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

export interface InspectorBundle {
  'app.js': Asset;
  'app.css': Asset;
}

function asset(type: string, body: Buffer): Asset {
  return { type, body, gzip: gzipSync(body, { level: 9 }) };
}

/** The options both the build script and the in-memory build use: one bundle, whoever makes it. */
export function buildOptions() {
  return {
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'esm' as const,
    target: ['chrome120', 'firefox120', 'safari17'],
    jsx: 'automatic' as const,
    jsxImportSource: 'preact',
    legalComments: 'none' as const,
    logLevel: 'silent' as const,
  };
}

/** Bundles app/ now (esbuild, in memory). */
export async function bundleNow(): Promise<InspectorBundle> {
  const result = await esbuild().build({ ...buildOptions(), write: false, outdir: BUILT });
  return fromOutputs(result.outputFiles);
}

/** Bundles app/ into BUILT (`npm run build`); answers the bundle written. */
export async function writeBundle(): Promise<InspectorBundle> {
  const result = await esbuild().build({ ...buildOptions(), write: true, outdir: BUILT, metafile: false });
  const built = builtBundle();
  if (result.errors.length > 0 || !built) throw new Error('inspector: the bundle was not written');
  return built;
}

function fromOutputs(outputFiles: ReadonlyArray<{ path: string; contents: Uint8Array }>): InspectorBundle {
  const js = outputFiles.find((file) => file.path.endsWith('.js'));
  const css = outputFiles.find((file) => file.path.endsWith('.css'));
  if (!js || !css) throw new Error('inspector: esbuild gave no script or no style sheet');
  return {
    'app.js': asset('text/javascript; charset=utf-8', Buffer.from(js.contents)),
    'app.css': asset('text/css; charset=utf-8', Buffer.from(css.contents)),
  };
}

/** The built bundle when `npm run build` made one, else undefined. */
function builtBundle(): InspectorBundle | undefined {
  const js = join(BUILT, 'main.js');
  const css = join(BUILT, 'main.css');
  if (!existsSync(js) || !existsSync(css)) return undefined;
  return {
    'app.js': asset('text/javascript; charset=utf-8', readFileSync(js)),
    'app.css': asset('text/css; charset=utf-8', readFileSync(css)),
  };
}

let loading: Promise<InspectorBundle | undefined> | undefined;

/**
 * The page's assets: the built ones, else bundled from source (once per process), else
 * undefined (an installed package missing its bundle, and no esbuild to make one).
 */
export function inspectorBundle(): Promise<InspectorBundle | undefined> {
  loading ??= (async () => {
    const built = COMPILED ? builtBundle() : undefined;
    if (built) return built;
    if (!existsSync(ENTRY)) return undefined;
    return bundleNow();
  })();
  // A failed build is tried again on the next request, not kept for the life of the process.
  loading.catch(() => (loading = undefined));
  return loading;
}
