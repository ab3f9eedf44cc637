// Shapes on every operation, on any target (stateful or not, even a server that only returns
// the document's examples, such as `prism mock spec/openapi.yaml`): a well-formed request is
// answered with a status the operation documents, in that status's shape, with a uuid
// X-Request-Id (the checking client fails anything else), and never with a 5xx. Ids in paths
// and bodies are fresh uuids (support/samples.ts), so a stateful target answers 404 or 401 where
// a stateless one answers its example; both are documented answers.
import { expect, it } from '@jest/globals';
import { samples } from './support/samples';
import { useSession } from './support/session';
import { contract } from './support/target';
import type { Page } from './support/types';

const session = useSession();

const all = samples(contract());
const lists = contract().operations.filter(
  (op) => op.method === 'get' && op.pathParams.length === 0 && op.responses.get('200')?.hasBody && /^list/.test(op.operationId),
);

it('covers every operation of the document', () => {
  expect(all.map((s) => s.operationId).sort()).toEqual(
    contract()
      .operations.map((op) => op.operationId)
      .sort(),
  );
});

it.each(all.map((s) => [s.operationId, s] as const))(
  'When %s gets a well-formed request, then it answers a status it documents, in the document’s shape [DOC-STATUS, DOC-SCHEMA]',
  async (_id, s) => {
    const { api, anonymous, onClose } = session();
    const res = await (s.op.security ? api : anonymous).call(s.method, s.path, { body: s.body });
    expect(s.op.responses.has(String(res.status))).toBe(true);
    expect(res.status).toBeLessThan(500);
    // A shared target keeps what this sweep created: take the subscription back (it points nowhere useful).
    if (s.operationId === 'createSubscription' && res.status === 201 && typeof res.body?.id === 'string')
      onClose(() => api.delete(`/v1/subscriptions/${res.body.id}`));
  },
);

it.each(lists.map((op) => [op.operationId, op.path] as const))(
  'When %s is read without parameters, then it answers 200 with a {data, meta} page [DOC-SCHEMA]',
  async (_id, path) => {
    const res = await session().api.get<Page<unknown>>(path);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.meta).toEqual(expect.objectContaining({ total: expect.any(Number) }));
  },
);
