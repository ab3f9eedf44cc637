// Idempotency keys of customers with a clock of their own travel in snapshots: that
// clock alone decides when such a key expires, so a snapshot keeps every key its customer's clock
// still holds live - even when the mock's clock has passed its expiry - and leaves out the keys
// that clock has seen expire; a restored key replays its first answer. In memory, and on Redis.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Harness } from '../http/harness';
import { control } from '../control/support';
import { fundedOf, newCustomer } from '../verify/support';
import { describeWithRedis } from '../support/redis-suite';
import { twoReplicas } from '../support/replica-pair';

/** Years before the mock's clock (2026): a key claimed then has expired by the mock's clock. */
const BEHIND = '2020-01-01T00:00:00.000Z';
const quoteBody = (accountId: string) => ({ accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' });
type Snapshot = { idempotency: Array<{ key: string; ownClock?: boolean }> };

describe('own-clock idempotency keys in a snapshot (memory)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startMock();
  });
  afterAll(() => h?.close());

  it('a key of a customer whose clock is behind the mock’s is kept: restored, it replays its first answer', async () => {
    const behind = await newCustomer(h, { clock: { start: BEHIND, frozen: true } });
    const key = randomUUID();
    const first = (await behind.api.post('/v1/quotes', quoteBody(fundedOf(behind)), key).expect(201)).body as { id: string };
    const snapshot = (await control(h).get('/snapshot').expect(200)).body as Snapshot;
    expect(snapshot.idempotency).toContainEqual(expect.objectContaining({ key: `${behind.customerId}:${key}`, ownClock: true }));

    await control(h).post('/snapshot', snapshot).expect(200);
    const replay = await behind.api.post('/v1/quotes', quoteBody(fundedOf(behind)), key).expect(201);
    expect(replay.body.id).toBe(first.id);
  });

  it('a key its customer’s clock has seen expire is left out, though the mock’s clock would still hold it live', async () => {
    const ahead = await newCustomer(h, { clock: { start: '2030-01-01T00:00:00.000Z', frozen: true } });
    const key = randomUUID();
    await ahead.api.post('/v1/quotes', quoteBody(fundedOf(ahead)), key).expect(201);
    await control(h).post(`/customers/${ahead.customerId}/clock/advance`, { by: '25h' }).expect(200);
    const snapshot = (await control(h).get('/snapshot').expect(200)).body as Snapshot;
    expect(snapshot.idempotency.map((entry) => entry.key)).not.toContain(`${ahead.customerId}:${key}`);
  });
});

describeWithRedis('own-clock idempotency keys in a snapshot (two replicas on one Redis)', (redis) => {
  const [a, b] = twoReplicas(redis);

  it('a key saved through one replica and loaded through the other replays its first answer there', async () => {
    const made = await a.control('POST', '/customers', { clock: { start: BEHIND, frozen: true } });
    const customer = made.body as { customerId: string; clientId: string; clientSecret: string; accounts: string[] };
    const key = randomUUID();
    const onA = a.as(await a.token(customer.clientId, customer.clientSecret));
    const first = await onA.post('/v1/quotes', quoteBody(customer.accounts[0] as string), key);
    expect(first.status).toBe(201);
    const snapshot = (await a.control('GET', '/snapshot')).body as Snapshot;
    expect(snapshot.idempotency).toContainEqual(expect.objectContaining({ key: `${customer.customerId}:${key}`, ownClock: true }));

    await b.control('POST', '/snapshot', snapshot);
    const onB = b.as(await b.token(customer.clientId, customer.clientSecret));
    const replay = await onB.post('/v1/quotes', quoteBody(customer.accounts[0] as string), key);
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
  });
});
