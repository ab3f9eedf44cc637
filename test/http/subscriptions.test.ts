// Subscriptions: the seed's creation rules, list/get/update/delete, URL policies, tenancy.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Authed, type Harness } from './harness';

let h: Harness;
let api: Authed;

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterAll(() => h?.close());

const operationsOnly = [{ name: 'OPERATION', events: ['OPERATION_REQUESTED', 'OPERATION_COMPLETED'] }];

describe('creating a subscription', () => {
  it('stores the URL, resources and allowRetry (default false) for the customer', async () => {
    const res = await api.post('/api/subscriptions', { url: 'https://hooks.example.com/fos', resources: operationsOnly }).expect(201);
    expect(res.body).toMatchObject({ url: 'https://hooks.example.com/fos', resources: operationsOnly, allowRetry: false });
    expect(res.body.companyId).toBeDefined();
  });

  it('with includeAll covers every resource and event type and ignores resources', async () => {
    const res = await api
      .post('/api/subscriptions', { url: 'https://hooks.example.com/all', includeAll: true, resources: operationsOnly })
      .expect(201);
    expect(res.body.resources.map((r: { name: string }) => r.name).sort()).toEqual(['ACCOUNT', 'BENEFICIARY', 'OPERATION']);
    expect(res.body.resources.flatMap((r: { events: string[] }) => r.events)).toHaveLength(12);
  });

  it.each([
    ['no resources and no includeAll', { url: 'https://h.example.com' }, 'body.resources'],
    ['an empty resources list', { url: 'https://h.example.com', resources: [] }, 'body.resources'],
    [
      'a resource named twice',
      { url: 'https://h.example.com', resources: [...operationsOnly, ...operationsOnly] },
      'body.resources.1.name',
    ],
    [
      'an event of another resource',
      { url: 'https://h.example.com', resources: [{ name: 'ACCOUNT', events: ['OPERATION_FAILED'] }] },
      'body.resources.0.events.0',
    ],
    [
      'an unknown event type',
      { url: 'https://h.example.com', resources: [{ name: 'OPERATION', events: ['OPERATION_EXPLODED'] }] },
      'body.resources.0.events.0',
    ],
    [
      'an unknown resource',
      { url: 'https://h.example.com', resources: [{ name: 'QUOTE', events: ['OPERATION_FAILED'] }] },
      'body.resources.0.name',
    ],
    ['plain HTTP to a public host', { url: 'http://hooks.example.com/x', resources: operationsOnly }, 'body.url'],
    ['a URL that is not a URL', { url: 'hooks', resources: operationsOnly }, 'body.url'],
  ])('rejects %s with 400 naming the field', async (_name, body, field) => {
    const res = await api.post('/api/subscriptions', body).expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect((res.body.details.fields as Array<{ field: string }>).map((f) => f.field)).toContain(field);
  });

  it('accepts plain HTTP to a loopback receiver in the development policy', async () => {
    await api.post('/api/subscriptions', { url: 'http://127.0.0.1:9999/hooks', resources: operationsOnly }).expect(201);
    await api.post('/api/subscriptions', { url: 'http://localhost:9999/hooks', resources: operationsOnly }).expect(201);
  });

  it('the production policy refuses plain HTTP and non-public addresses', async () => {
    // Production resolves host names; tests use no real DNS: a fake resolver answers a public address.
    const prod = await startMock({
      config: { urlPolicy: 'production' },
      lookup: () => Promise.resolve([{ address: '93.184.215.14', family: 4 }]),
    });
    try {
      const me = await prod.as();
      for (const url of [
        'http://127.0.0.1:9999/hooks',
        'https://127.0.0.1/hooks',
        'https://10.1.2.3/hooks',
        'https://[fe80::1]/hooks',
        'https://192.168.0.10/x',
      ]) {
        const res = await me.post('/api/subscriptions', { url, resources: operationsOnly }).expect(400);
        expect(res.body.details.fields[0].field).toBe('body.url');
      }
      await me.post('/api/subscriptions', { url: 'https://hooks.example.com/fos', resources: operationsOnly }).expect(201);
    } finally {
      await prod.close();
    }
  });
});

describe('managing subscriptions', () => {
  it('lists, reads, updates and deletes a subscription', async () => {
    const created = (await api.post('/api/subscriptions', { url: 'https://hooks.example.com/a', resources: operationsOnly }).expect(201))
      .body;
    const list = (await api.get('/v1/subscriptions?limit=100').expect(200)).body;
    expect(list.data.map((s: { id: string }) => s.id)).toContain(created.id);
    expect((await api.get(`/v1/subscriptions/${created.id}`).expect(200)).body).toEqual(created);
    const updated = (
      await api.patch(`/v1/subscriptions/${created.id}`, { allowRetry: true, url: 'https://hooks.example.com/b' }).expect(200)
    ).body;
    expect(updated).toMatchObject({ allowRetry: true, url: 'https://hooks.example.com/b', resources: operationsOnly });
    await api.delete(`/v1/subscriptions/${created.id}`).expect(204);
    await api.get(`/v1/subscriptions/${created.id}`).expect(404);
  });

  it('an update needs at least one field and follows the creation rules', async () => {
    const created = (await api.post('/api/subscriptions', { url: 'https://hooks.example.com/a', resources: operationsOnly }).expect(201))
      .body;
    await api.patch(`/v1/subscriptions/${created.id}`, {}).expect(400);
    await api.patch(`/v1/subscriptions/${created.id}`, { url: 'http://hooks.example.com' }).expect(400);
  });

  it('another customer cannot see, change or delete it', async () => {
    const created = (await api.post('/api/subscriptions', { url: 'https://hooks.example.com/a', resources: operationsOnly }).expect(201))
      .body;
    const other = await h.as('customer2');
    await other.get(`/v1/subscriptions/${created.id}`).expect(404);
    await other.patch(`/v1/subscriptions/${created.id}`, { allowRetry: true }).expect(404);
    await other.delete(`/v1/subscriptions/${created.id}`).expect(404);
    await other.get(`/v1/subscriptions/${created.id}/executionLogs`).expect(404);
    const theirs = (await other.get('/v1/subscriptions?limit=100').expect(200)).body.data.map((s: { id: string }) => s.id);
    expect(theirs).not.toContain(created.id);
  });
});

describe('reference look-ups', () => {
  it('lists the resource names with their events, and the 12 event types, paginated', async () => {
    const resources = (await api.get('/v1/reference/resources').expect(200)).body;
    expect(resources.data.map((r: { name: string }) => r.name).sort()).toEqual(['ACCOUNT', 'BENEFICIARY', 'OPERATION']);
    const first = (await api.get('/v1/reference/eventTypes?limit=5').expect(200)).body;
    expect(first.meta.total).toBe(5);
    const rest = (await api.get(`/v1/reference/eventTypes?limit=100&cursor=${encodeURIComponent(first.meta.nextCursor)}`).expect(200)).body;
    expect(first.data.length + rest.data.length).toBe(12);
    expect(rest.meta.nextCursor).toBeNull();
  });
});
