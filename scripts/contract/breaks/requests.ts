// Breaks made by changing requests on their way in (an app in front of the mock): a version
// header ignored, PREVIOUS read as NEXT, a limit outside 1..100 or absent replaced, ASCENDING as the
// default order, a token that works once, a token call that wants a key, a key burned by a 400.
import type { Request } from 'express';
import type { Break } from './break';
import { front, path } from './front';

/** Rewrites the query of a request before the mock reads it (the service listener reads req.url). */
function editQuery(req: Request, change: (query: URLSearchParams) => void): void {
  const [pathname, search] = (req.url ?? '/').split('?');
  const query = new URLSearchParams(search ?? '');
  change(query);
  const text = query.toString();
  req.url = text ? `${pathname}?${text}` : (pathname ?? '/');
}

const isList = (req: Request) => req.method === 'GET' && !/\/[0-9a-f-]{36}$/i.test(path(req));

export const versionHeaderIgnored: Break = {
  id: 'version-header-ignored',
  rules: ['VERSION-HEADER'],
  what: 'X-Service-Version is not read: an unknown version is served as the default',
  files: ['auth'],
  wrap: front((req, _res, next) => {
    delete req.headers['x-service-version'];
    next();
  }),
};

export const previousWalksForward: Break = {
  id: 'previous-walks-forward',
  rules: ['PAGE-WALK'],
  what: 'direction=PREVIOUS is read as NEXT',
  files: ['pagination', 'webhooks-logs'],
  wrap: front((req, _res, next) => {
    editQuery(req, (q) => q.get('direction') === 'PREVIOUS' && q.set('direction', 'NEXT'));
    next();
  }),
};

export const limitUnchecked: Break = {
  id: 'limit-unchecked',
  rules: ['PAGE-LIMIT'],
  what: 'limit defaults to 20 and a limit outside 1..100 is clamped instead of refused',
  files: ['pagination'],
  wrap: front((req, _res, next) => {
    if (isList(req))
      editQuery(req, (q) => {
        const limit = q.get('limit');
        if (limit === null) q.set('limit', '20');
        else if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100) q.set('limit', '100');
      });
    next();
  }),
};

export const sortDefaultAscending: Break = {
  id: 'sort-default-ascending',
  rules: ['PAGE-SORT'],
  what: 'lists come oldest first when no sortOrder is given',
  files: ['pagination', 'operations', 'webhooks-logs'],
  wrap: front((req, _res, next) => {
    if (isList(req)) editQuery(req, (q) => !q.has('sortOrder') && !q.has('cursor') && q.set('sortOrder', 'ASCENDING'));
    next();
  }),
};

export const tokenSingleUse: Break = {
  id: 'token-single-use',
  rules: ['AUTH-TOKEN-REUSABLE'],
  what: 'an access token is accepted for one call only (a second call with it answers 401)',
  files: ['auth'],
  // A fresh memory per mock the break is applied to.
  wrap: (app, mock) => {
    const used = new Set<string>();
    return front((req, res, next) => {
      const token = req.headers.authorization;
      if (token && used.has(token)) {
        res.status(401).json({ code: 'UNAUTHORIZED', message: 'Token already used.' });
        return;
      }
      if (token) used.add(token);
      next();
    })(app, mock);
  },
};

export const tokenCallNeedsKey: Break = {
  id: 'token-call-needs-key',
  rules: ['AUTH-TOKEN-NO-KEY'],
  what: 'the token call without X-Idempotency-Key answers 400 IDEMPOTENCY_KEY_REQUIRED',
  files: ['auth'],
  wrap: front((req, res, next) => {
    if (path(req) === '/api/oauth/client/token' && req.headers['x-idempotency-key'] === undefined) {
      res.status(400).json({ code: 'IDEMPOTENCY_KEY_REQUIRED', message: 'X-Idempotency-Key is required.' });
      return;
    }
    next();
  }),
};

export const keyBurnedByInvalid: Break = {
  id: 'key-burned-by-invalid',
  rules: ['IDEM-INVALID-NOT-BURNED'],
  what: 'a key whose request was refused as invalid (400) answers 422 IDEMPOTENCY_KEY_REUSED when used again',
  files: ['idempotency'],
  wrap: (app, mock) => {
    const burned = new Set<string>();
    return front((req, res, next) => {
      const key = req.headers['x-idempotency-key'];
      if (typeof key !== 'string') return next();
      if (burned.has(key)) {
        res.status(422).json({ code: 'IDEMPOTENCY_KEY_REUSED', message: 'Key used for another request.' });
        return;
      }
      res.on('finish', () => res.statusCode === 400 && burned.add(key));
      next();
    })(app, mock);
  },
};

export const filtersIgnored: Break = {
  id: 'filters-ignored',
  rules: ['FILTER-SELECTS'],
  what: 'the execution-log filters parameter is dropped: every log comes back',
  files: ['webhooks-logs'],
  wrap: front((req, _res, next) => {
    if (/\/executionLogs$/.test(path(req))) editQuery(req, (q) => q.delete('filters'));
    next();
  }),
};
