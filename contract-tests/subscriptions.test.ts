// Webhook subscriptions: the seed's creation rules, the lifecycle (list, read, update, delete),
// and the reference look-ups of resource names and event types.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { describeWhen } from './support/capabilities';
import { allPages } from './support/preconditions';
import { operationEvents } from './support/samples';
import { useSession } from './support/session';
import { contract } from './support/target';
import type { Schemas, Subscription } from './support/types';

const session = useSession();

/** Creates a subscription and deletes it when the file ends (a shared target keeps its data). */
async function subscribe(body: Record<string, unknown>): Promise<Subscription> {
  const { api, onClose } = session();
  const res = await api.post<Subscription>('/api/subscriptions', body);
  expect(res.status).toBe(201);
  onClose(() => api.delete(`/v1/subscriptions/${res.body.id}`));
  return res.body;
}

const documentEnum = (name: string) => (contract().document.components.schemas as Record<string, { enum: string[] }>)[name]!.enum;

describeWhen(['stateful'], 'creating a subscription', () => {
  it('When a subscription names its resources, then it stores them, with allowRetry false by default [SUB-CREATE-DEFAULTS]', async () => {
    const sub = await subscribe({ url: 'https://hooks.example.com/fos', resources: operationEvents });
    expect(sub).toMatchObject({ url: 'https://hooks.example.com/fos', resources: operationEvents, allowRetry: false });
    expect(sub.companyId).toEqual(expect.any(String));
  });

  it('When includeAll is true, then it covers every resource and event type and ignores resources [SUB-CREATE-DEFAULTS]', async () => {
    const sub = await subscribe({ url: 'https://hooks.example.com/all', includeAll: true, resources: operationEvents, allowRetry: true });
    expect(sub.allowRetry).toBe(true);
    expect(sub.resources.map((r) => r.name).sort()).toEqual([...documentEnum('ResourceName')].sort());
    expect(sub.resources.flatMap((r) => r.events).sort()).toEqual([...documentEnum('EventType')].sort());
  });

  it.each([
    ['no resources and no includeAll', { url: 'https://h.example.com/x' }],
    ['includeAll false and no resources', { url: 'https://h.example.com/x', includeAll: false }],
    ['an empty resources list', { url: 'https://h.example.com/x', resources: [] }],
    ['a resource named twice', { url: 'https://h.example.com/x', resources: [...operationEvents, ...operationEvents] }],
    ['a resource without events', { url: 'https://h.example.com/x', resources: [{ name: 'OPERATION', events: [] }] }],
    ['an unknown event type', { url: 'https://h.example.com/x', resources: [{ name: 'OPERATION', events: ['OPERATION_EXPLODED'] }] }],
    ['an unknown resource', { url: 'https://h.example.com/x', resources: [{ name: 'QUOTE', events: ['OPERATION_FAILED'] }] }],
    ['plain HTTP to a public host', { url: 'http://hooks.example.com/x', resources: operationEvents }],
    ['a URL that is not a URL', { url: 'hooks', resources: operationEvents }],
    ['no URL', { resources: operationEvents }],
    ['allowRetry as a string', { url: 'https://h.example.com/x', resources: operationEvents, allowRetry: 'yes' }],
  ])(
    'When the request has %s, then it answers 400 VALIDATION_ERROR [VALIDATION-400, SUB-RESOURCES-RULE, SUB-URL-POLICY]',
    async (_name, body) => {
      const res = await session().api.post('/api/subscriptions', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );
});

describeWhen(['stateful'], 'managing a subscription', () => {
  it('When a subscription is listed, read, updated and deleted, then each step shows it as it is [SUB-LIFECYCLE, DOC-SCHEMA]', async () => {
    const { api } = session();
    const sub = await subscribe({ url: 'https://hooks.example.com/a', resources: operationEvents });
    expect((await allPages<Subscription>(api, '/v1/subscriptions')).map((s) => s.id)).toContain(sub.id);
    expect((await api.get<Subscription>(`/v1/subscriptions/${sub.id}`)).body).toEqual(sub);
    const updated = await api.patch<Subscription>(`/v1/subscriptions/${sub.id}`, { allowRetry: true, url: 'https://hooks.example.com/b' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: sub.id, allowRetry: true, url: 'https://hooks.example.com/b', resources: operationEvents });
    expect((await api.get<Subscription>(`/v1/subscriptions/${sub.id}`)).body).toEqual(updated.body);
    const deleted = await api.delete(`/v1/subscriptions/${sub.id}`);
    expect(deleted.status).toBe(204);
    expect((await api.get(`/v1/subscriptions/${sub.id}`)).status).toBe(404);
    expect((await api.delete(`/v1/subscriptions/${sub.id}`)).status).toBe(404);
    expect((await allPages<Subscription>(api, '/v1/subscriptions')).map((s) => s.id)).not.toContain(sub.id);
  });

  it('When the resources are replaced, then the new list is stored [SUB-LIFECYCLE]', async () => {
    const sub = await subscribe({ url: 'https://hooks.example.com/r', resources: operationEvents });
    const resources = [{ name: 'BENEFICIARY', events: ['BENEFICIARY_INSTRUCTION_APPROVED'] }];
    const res = await session().api.patch<Subscription>(`/v1/subscriptions/${sub.id}`, { resources });
    expect(res.status).toBe(200);
    expect(res.body.resources).toEqual(resources);
  });

  it.each([
    ['no field', {}],
    ['plain HTTP to a public host', { url: 'http://hooks.example.com' }],
    ['an empty resources list', { resources: [] }],
    ['an unknown field', { colour: 'blue' }],
  ])(
    'When an update has %s, then it answers 400 VALIDATION_ERROR [VALIDATION-400, SUB-RESOURCES-RULE, SUB-URL-POLICY]',
    async (_name, body) => {
      const sub = await subscribe({ url: 'https://hooks.example.com/u', resources: operationEvents });
      const res = await session().api.patch(`/v1/subscriptions/${sub.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );

  it(
    'When an unknown subscription is read, updated, deleted or its logs listed, ' + 'then it answers 404 [NOT-FOUND-404, ERROR-BODY]',
    async () => {
      const { api } = session();
      const id = randomUUID();
      for (const res of [
        await api.get(`/v1/subscriptions/${id}`),
        await api.patch(`/v1/subscriptions/${id}`, { allowRetry: true }),
        await api.delete(`/v1/subscriptions/${id}`),
        await api.get(`/v1/subscriptions/${id}/executionLogs`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
      }
    },
  );
});

describeWhen(['stateful'], 'reference look-ups', () => {
  it(
    'When the resource names are listed, ' + 'then they are the document’s, each with the event types it emits [SUB-REFERENCE, DOC-STATUS]',
    async () => {
      const resources = await allPages<Schemas['ReferenceResource']>(session().api, '/v1/reference/resources');
      expect(resources.map((r) => r.name).sort()).toEqual([...documentEnum('ResourceName')].sort());
      expect(resources.flatMap((r) => r.events).sort()).toEqual([...documentEnum('EventType')].sort());
      for (const r of resources) for (const event of r.events) expect(event.startsWith(r.name)).toBe(true);
    },
  );

  it('When the event types are listed, then they are the document’s, each naming its resource [SUB-REFERENCE]', async () => {
    const events = await allPages<Schemas['ReferenceEventType']>(session().api, '/v1/reference/eventTypes');
    expect(events.map((e) => e.name).sort()).toEqual([...documentEnum('EventType')].sort());
    for (const e of events) {
      expect(e.name.startsWith(e.resource)).toBe(true);
      expect(e.description).toEqual(expect.any(String));
    }
  });
});
