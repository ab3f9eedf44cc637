// Starts the mock in-process for HTTP tests: demo fixtures, a frozen mock clock, no
// auto-settlement (tests settle explicitly), logs silenced, strict response validation on.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp, type AppOptions, type MockApp } from '../../mock/app';
import { createClock } from '../../mock/clock';
import { defaultConfig } from '../../mock/config';
import { readFixtures } from '../../mock/services/fixtures';
import type { DemoFixtures } from '../../fixtures/types';
import { loadContract, type Contract, type OperationContract } from '../../spec/contract';
import { projectPath } from '../../spec/project-root';
import pino from 'pino';

let sharedContract: Contract | undefined;
/** Compiling the document is the slow part of start-up; one compilation serves every test file's apps. */
export function contract(): Contract {
  return (sharedContract ??= loadContract());
}

export const CLOCK_START = Date.parse('2026-11-21T12:00:00.000Z');

export const DEMO = {
  customer1: { clientId: 'demo-client', clientSecret: 'demo-secret' },
  customer2: { clientId: 'demo-client-2', clientSecret: 'demo-secret-2' },
};

export interface Harness {
  mock: MockApp;
  http: ReturnType<typeof request>;
  token(who?: keyof typeof DEMO): Promise<string>;
  /** A request with the bearer token of the customer (customer1 by default). */
  as(who?: keyof typeof DEMO): Promise<Authed>;
  /** Stops the mock's timers and closes its webhook connections (MockApp.close). */
  close(): Promise<void>;
}

export interface Authed {
  get(path: string): request.Test;
  post(path: string, body?: unknown, key?: string): request.Test;
  patch(path: string, body?: unknown, key?: string): request.Test;
  delete(path: string): request.Test;
}

/** Requests carrying `token` as their bearer token (and a fresh idempotency key on writes, unless given). */
export function authedWith(http: ReturnType<typeof request>, token: string): Authed {
  const auth = `Bearer ${token}`;
  return {
    get: (path) => http.get(path).set('Authorization', auth),
    post: (path, body, key = randomUUID()) => {
      const req = http.post(path).set('Authorization', auth).set('X-Idempotency-Key', key);
      return body === undefined ? req : req.send(body as object);
    },
    patch: (path, body, key = randomUUID()) =>
      http
        .patch(path)
        .set('Authorization', auth)
        .set('X-Idempotency-Key', key)
        .send(body as object),
    delete: (path) => http.delete(path).set('Authorization', auth),
  };
}

export async function startMock(options: AppOptions = {}): Promise<Harness> {
  const mock = await createApp({
    contract: contract(),
    clock: createClock({ start: CLOCK_START, frozen: true }),
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...options,
    config: { ...defaultConfig(), autoSettleMs: null, ...options.config },
  });
  const http = request(mock.app);
  const tokens = new Map<string, string>();
  const token = async (who: keyof typeof DEMO = 'customer1') => {
    let value = tokens.get(who);
    if (!value) {
      const res = await http.post('/api/oauth/client/token').send(DEMO[who]).expect(200);
      value = res.body.accessToken as string;
      tokens.set(who, value);
    }
    return value;
  };
  return {
    mock,
    http,
    token,
    async as(who = 'customer1') {
      return authedWith(http, await token(who));
    },
    close: () => mock.close(),
  };
}

let sharedFixtures: DemoFixtures | undefined;
/** The demo data's ids, read from the fixture file so tests never hard-code them twice. */
export function demoFixtures(): DemoFixtures {
  return (sharedFixtures ??= readFixtures(projectPath('fixtures', 'demo.json')));
}

/** An operation of the document with its 200 page's item check counted (how often the encoder or the store ran it). */
export function countingItemCheck(op: OperationContract): { op: OperationContract; calls: () => number } {
  let calls = 0;
  const response = op.responses.get('200')!;
  const page = { ...response.page!, item: (value: unknown) => (calls++, response.page!.item(value)) };
  const responses = new Map(op.responses).set('200', { ...response, page });
  return {
    op: { ...op, responses, responseFor: (status: number) => (status === 200 ? responses.get('200') : op.responseFor(status)) },
    calls: () => calls,
  };
}
