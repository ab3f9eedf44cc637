// The documents and their reference: GET /openapi.yaml (the service document as written),
// GET /docs (an interactive reference rendered by Redoc's standalone bundle, served from
// node_modules: no CDN). The renderer is an optional package; without it /docs answers 501.
import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';
import { DEFAULT_DOCUMENT_PATH } from '../../spec/contract/document';
import { ServiceError } from '../errors/catalogue';

/** The package (and version) /docs is built for. */
export const DOCS_PACKAGE = 'redoc@2.5.4';
const BUNDLE = 'redoc/bundles/redoc.standalone.js';

/** Where the renderer's standalone bundle is, when the package is installed. */
export function findRenderer(): string | undefined {
  try {
    return require.resolve(BUNDLE);
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
