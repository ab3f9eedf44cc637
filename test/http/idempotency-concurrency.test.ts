// The same idempotency key arriving while the first request is still running.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { handlers } from '../../mock/resources/handlers';
import { startMock } from './harness';
import { demo } from './fixture-ids';

const d = demo();

describe('a duplicate request while the first is still running', () => {
  it('is answered 409 IDEMPOTENCY_REQUEST_IN_PROGRESS, and a later replay gets the first answer', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    const slow = await startMock({
      handlers: {
        ...handlers,
        createQuote: async (ctx) => {
          entered();
          await gate;
          return handlers.createQuote(ctx);
        },
      },
    });
    try {
      const api = await slow.as();
      const key = randomUUID();
      const body = { accountId: d.funded(d.c1.id).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '2.00' };
      const first = api.post('/v1/quotes', body, key).then((r) => r);
      await started;
      const duplicate = await api.post('/v1/quotes', body, key);
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
      release();
      const original = await first;
      expect(original.status).toBe(201);
      const replay = await api.post('/v1/quotes', body, key).expect(201);
      expect(replay.body).toEqual(original.body);
      expect(replay.headers['x-idempotent-replayed']).toBe('true');
    } finally {
      release();
      await slow.close();
    }
  });

  it('of 50 concurrent identical requests with one key, exactly one resource is created', async () => {
    const mock = await startMock();
    try {
      const api = await mock.as();
      const key = randomUUID();
      const body = { accountId: d.funded(d.c1.id).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '2.00' };
      const answers = await Promise.all(Array.from({ length: 50 }, () => api.post('/v1/quotes', body, key)));
      const ids = new Set(answers.filter((r) => r.status === 201).map((r) => r.body.id));
      expect(ids.size).toBe(1);
      for (const answer of answers) expect([201, 409]).toContain(answer.status);
    } finally {
      await mock.close();
    }
  });
});
