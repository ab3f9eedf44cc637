// GET /_mock/inspector: the page (a small HTML shell; the view is drawn by app.js) and its two
// assets, gzip-compressed when the browser accepts it. Mounted with the control API, and only
// with it: the page talks to nothing but /_mock.
import express, { type Request, type Response, type Router } from 'express';
import { ServiceError } from '../errors/catalogue';
import { inspectorBundle, type Asset } from './bundle';

export const INSPECTOR_PATH = '/_mock/inspector';

const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>fos-mock inspector</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${INSPECTOR_PATH}/app.css">
    <script type="module" src="${INSPECTOR_PATH}/app.js"></script>
  </head>
  <body>
    <div id="app"><noscript>The inspector needs JavaScript.</noscript></div>
  </body>
</html>
`;

function send(req: Request, res: Response, asset: Asset): void {
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', 'no-cache');
  res.type(asset.type);
  if (req.acceptsEncodings('gzip') === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(asset.gzip);
  } else {
    res.send(asset.body);
  }
}

export function inspectorRouter(): Router {
  const router = express.Router();
  const unavailable = () =>
    new ServiceError(
      'INSPECTOR_UNAVAILABLE',
      { build: 'npm run build' },
      'The inspector page was not built: run `npm run build` (the installed package ships it built).',
    );
  router.get(INSPECTOR_PATH, (_req, res) => void res.type('html').setHeader('Cache-Control', 'no-cache').send(SHELL));
  router.get([`${INSPECTOR_PATH}/app.js`, `${INSPECTOR_PATH}/app.css`], (req, res, next) => {
    inspectorBundle().then(
      (bundle) => {
        if (!bundle) return next(unavailable());
        send(req, res, req.path.endsWith('.js') ? bundle['app.js'] : bundle['app.css']);
      },
      (error: unknown) => next(error),
    );
  });
  return router;
}
