// Breaks of headers, in either direction: X-Request-Id dropped or not a uuid, an idempotent replay
// not marked, an idempotency key made up for a client that sent none.
import { randomUUID } from 'node:crypto';
import type { Break } from './break';
import { front, headers, path } from './front';

export const requestIdMissing: Break = {
  id: 'request-id-missing',
  rules: ['REQUEST-ID'],
  what: 'X-Request-Id never sent',
  files: ['accounts'],
  wrap: headers((name, value) => (name === 'x-request-id' ? undefined : value)),
};

export const requestIdNotUuid: Break = {
  id: 'request-id-not-uuid',
  rules: ['REQUEST-ID'],
  what: 'X-Request-Id not a uuid (req-<time>)',
  files: ['accounts'],
  wrap: headers((name, value) => (name === 'x-request-id' ? `req-${Date.now()}` : value)),
};

export const replayUnmarked: Break = {
  id: 'replay-unmarked',
  rules: ['IDEM-REPLAY'],
  what: 'an idempotent replay without X-Idempotent-Replayed',
  files: ['idempotency'],
  wrap: headers((name, value) => (name === 'x-idempotent-replayed' ? undefined : value)),
};

export const keyNotRequired: Break = {
  id: 'key-not-required',
  rules: ['IDEM-KEY-REQUIRED'],
  what: 'a POST without X-Idempotency-Key is served (the server makes one up)',
  files: ['idempotency'],
  wrap: front((req, _res, next) => {
    if (
      ['POST', 'PATCH', 'PUT'].includes(req.method) &&
      path(req) !== '/api/oauth/client/token' &&
      req.headers['x-idempotency-key'] === undefined
    )
      req.headers['x-idempotency-key'] = randomUUID();
    next();
  }),
};
