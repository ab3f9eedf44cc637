// The request journal: every request, newest first, the last 1000 kept in a ring buffer.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Journal, type JournalEntry } from '../../mock/http/journal';
import { startMock, type Authed, type Harness } from '../http/harness';
import { control, d } from './support';

const entry = (n: number): JournalEntry => ({
  requestId: `r${n}`,
  method: 'GET',
  path: `/p/${n}`,
  status: 200,
  latencyMs: 1,
  at: '2026-01-01T00:00:00.000Z',
});

describe('the ring buffer', () => {
  it('keeps the last `capacity` entries, newest first, and honours a limit', () => {
    const journal = new Journal(3);
    for (let n = 1; n <= 5; n++) journal.add(entry(n));
    expect(journal.latest().map((e) => e.requestId)).toEqual(['r5', 'r4', 'r3']);
    expect(journal.latest(2).map((e) => e.requestId)).toEqual(['r5', 'r4']);
    expect(journal.size).toBe(3);
    journal.clear();
    expect(journal.latest()).toEqual([]);
  });

  it('holds 1000 by default', () => {
    const journal = new Journal();
    for (let n = 1; n <= 1500; n++) journal.add(entry(n));
    const all = journal.latest();
    expect(all).toHaveLength(1000);
    expect([all[0]!.requestId, all[999]!.requestId]).toEqual(['r1500', 'r501']);
  });
});

describe('GET /_mock/journal', () => {
  let h: Harness;
  let api: Authed;
  beforeAll(async () => {
    h = await startMock();
    api = await h.as();
  });
  afterAll(() => h?.close());

  it('records service and control requests with method, path (no query), status, request id, latency and mock time', async () => {
    const accounts = await api.get('/api/accounts?limit=2').expect(200);
    const missing = await api.get('/v1/nowhere').expect(404);
    const health = await control(h).get('/health').expect(200);
    const data = (await control(h).get('/journal?limit=3').expect(200)).body.data;
    expect(data).toEqual([
      {
        requestId: health.headers['x-request-id'],
        method: 'GET',
        path: '/_mock/health',
        status: 200,
        latencyMs: expect.any(Number),
        at: '2026-11-21T12:00:00.000Z',
      },
      {
        requestId: missing.headers['x-request-id'],
        method: 'GET',
        path: '/v1/nowhere',
        status: 404,
        latencyMs: expect.any(Number),
        at: '2026-11-21T12:00:00.000Z',
      },
      {
        requestId: accounts.headers['x-request-id'],
        method: 'GET',
        path: '/api/accounts',
        status: 200,
        latencyMs: expect.any(Number),
        at: '2026-11-21T12:00:00.000Z',
        customerId: d.c1.id,
      },
    ]);
  });

  it('refuses a limit outside 1-1000', async () => {
    await control(h).get('/journal?limit=0').expect(400);
    await control(h).get('/journal?limit=1001').expect(400);
  });
});
