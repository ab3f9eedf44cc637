// The documents and their reference: GET /openapi.yaml (the service document as written),
// GET /docs (an interactive reference rendered by Redoc's standalone bundle, served by the mock
// itself: no CDN, works offline). redoc is a dev dependency: `npm run build` copies its one-file
// bundle into dist/, so the package ships it without redoc's own dependencies. A clone run from
// source serves the dev dependency's copy; with neither, /docs answers 501.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { DEFAULT_DOCUMENT_PATH } from '../../spec/contract/document';
import { ServiceError } from '../errors/catalogue';

/** The package (and version) /docs is built for. */
export const DOCS_PACKAGE = 'redoc@2.5.4';
/** The renderer in the redoc package (a dev dependency). */
export const RENDERER_BUNDLE = 'redoc/bundles/redoc.standalone.js';
/** Where `npm run build` copies it (with its licence file): beside this module's compiled copy. */
export const BUILT_RENDERER = join(__dirname, 'renderer', 'redoc.standalone.js');

/** The built copy (the package, a build), else the redoc package's (a clone run from source), else none. */
export function findRenderer(): string | undefined {
  if (existsSync(BUILT_RENDERER)) return BUILT_RENDERER;
  try {
    return require.resolve(RENDERER_BUNDLE);
  } catch {
    return undefined;
  }
}

function page(title: string, specUrl: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${title}</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="${specUrl}"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>
`;
}

export function docsRouter(options: { controlApi: boolean; renderer?: string }): Router {
  const router = express.Router();
  const document = readFileSync(DEFAULT_DOCUMENT_PATH, 'utf8');
  router.get('/openapi.yaml', (_req, res) => void res.type('application/yaml').send(document));

  const renderer = options.renderer;
  const unavailable = new ServiceError(
    'DOCS_UNAVAILABLE',
    { package: DOCS_PACKAGE, install: `npm install ${DOCS_PACKAGE}`, document: '/openapi.yaml' },
    `The API reference needs the ${DOCS_PACKAGE} package, which is not installed. The document itself is at /openapi.yaml.`,
  );
  // Refusals go to the app's error handler: the one serialiser writes every Error body.
  router.get(['/docs', '/docs/control'], (req, res, next) => {
    if (!renderer) return next(unavailable);
    const control = req.path.startsWith('/docs/control');
    if (control && !options.controlApi) return next(new ServiceError('ROUTE_NOT_FOUND', { method: req.method, path: req.path }));
    res
      .type('html')
      .send(
        control
          ? page('fos-mock control API', '/_mock/openapi.yaml')
          : page('Financial Operations Service API (fos-mock)', '/openapi.yaml'),
      );
  });
  router.get('/docs/redoc.standalone.js', (_req, res, next) => {
    if (!renderer) return next(unavailable);
    res.type('text/javascript').sendFile(renderer);
  });
  return router;
}
