// Property-based fuzzing of every operation of the document. For each one, fast-check builds
// requests from the operation's own schemas: valid-ish bodies (real ids of the running mock
// where a uuid names something), deliberately broken ones, bodies that are not JSON, mangled
// path ids, query strings and headers. Whatever is asked, the answer is never a 5xx, an error
// is the Error body with an X-Request-Id uuid, and a success is exactly what the document says.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { contract, startMock, type Harness } from '../http/harness';
import { demo } from '../http/fixture-ids';
import type { OperationContract } from '../../spec/contract';
import { answerProblems } from './support/checks';
import { errorLog } from './support/error-log';
import { report, SEED, size } from './support/env';
import { client, serve, type Answer, type SendOptions, type Served } from './support/http-client';
import {
  headerChoice,
  mangledSegment,
  mutate,
  mutation,
  queryString,
  RAW_BODIES,
  SchemaGen,
  type KnownBugs,
  type Pools,
} from './support/schema-gen';

/** fast-check runs (one request each) per operation of the document. */
const RUNS = size('RELIABILITY_FUZZ_RUNS', 300);
/** Inputs that once made the mock answer 500 (fixed; kept in the fuzz so they stay fixed). */
const BUGS: KnownBugs = { overflowingAmounts: true, malformedPathEscapes: true, undecodableBodies: true };
/** Runs of the targeted properties (a few requests each). */
const TARGETED_RUNS = size('RELIABILITY_FUZZ_TARGETED_RUNS', 40);
const REUSED_KEY = '7d1e4a52-96c3-4f0e-8b5a-2c6f1d9e3b70';

const d = demo();
let h: Harness;
let served: Served;
let token: string;
let pools: Pools;
let cursors: string[] = [];
let gen: SchemaGen;
let requests = 0;
const errors = errorLog();
const statuses = new Map<string, Map<number, number>>();

beforeAll(async () => {
  // Deliveries go nowhere: fuzzed subscription URLs must not make the mock call the network.
  h = await startMock({ logger: errors.logger, deliver: () => Promise.resolve({ ok: true, httpStatus: 200, error: null }) });
  served = await serve(h.mock.app);
  token = await h.token('customer1');
  pools = await preparePools();
  gen = new SchemaGen(h.mock.contract.document, pools, BUGS);
});

afterAll(async () => {
  await h.mock.services.webhooks.idle();
  await served.close();
  await h.close();
  const twoXX = [...statuses.values()].reduce(
    (n, byStatus) => n + [...byStatus].filter(([s]) => s < 300).reduce((m, [, c]) => m + c, 0),
    0,
  );
  report('fuzz.test.ts', {
    operations: h.mock.contract.operations.length,
    runsPerOperation: RUNS,
    requestsFuzzed: requests,
    answered2xx: twoXX,
  });
});

/** Real ids to aim at: the demo data of both customers, and quotes, operations, subscriptions and logs made now. */
async function preparePools(): Promise<Pools> {
  const api = client(served, token);
  const accounts = d.f.accounts.map((a) => a.id);
  const funded = d.funded(d.c1.id).id;
  const quotePairs: Pools['quotePairs'] = [];
  const pairs = [
    ['BRL', 'BRL'],
    ['BRL', 'USDT'],
    ['USDT', 'BRL'],
    ['USDT', 'USDT'],
  ] as const;
  for (const accountId of d.accountsOf(d.c1.id).map((a) => a.id)) {
    for (const [sourceAsset, targetAsset] of pairs) {
      for (let i = 0; i < 6; i++) {
        const q = await api.post('/v1/quotes', { accountId, sourceAsset, targetAsset, sourceAmount: `${i + 1}.00` });
        expect(q.status).toBe(201);
        quotePairs.push({ quoteId: q.body.id, accountId });
      }
    }
  }
  const quotes = quotePairs.map((p) => p.quoteId);
  const subscribe = async (url: string) => {
    const s = await api.post('/api/subscriptions', { url, includeAll: true, allowRetry: true });
    expect(s.status).toBe(201);
    return s.body.id as string;
  };
  const subscriptions = [await subscribe('http://127.0.0.1:9/a'), await subscribe('https://hooks.example.test/b')];
  const disposableSubscriptions: string[] = [];
  for (let i = 0; i < 10; i++) disposableSubscriptions.push(await subscribe(`https://hooks.example.test/disposable/${i}`));
  const operations: string[] = [];
  for (const quoteId of quotes.slice(0, 3)) {
    const op = await api.post('/v1/operations/deposits', {
      accountId: d.accountsOf(d.c1.id)[0]!.id,
      quoteId,
      fundingInstruction: { rail: 'PIX' },
    });
    expect(op.status).toBe(201);
    operations.push(op.body.id);
  }
  await h.mock.services.webhooks.idle();
  const executionLogs = (await api.get(`/v1/subscriptions/${subscriptions[0]}/executionLogs?limit=100`)).body.data.map(
    (l: { id: string }) => l.id,
  );
  const c2 = await h.as('customer2');
  const foreignQuote = (
    await c2
      .post('/v1/quotes', { accountId: d.funded(d.c2.id).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
      .expect(201)
  ).body.id;
  quotes.push(foreignQuote);
  // Cursors: a real one, one of another list, and tampered ones.
  const opsPage = (await api.get('/v1/operations?limit=1')).body.meta.nextCursor as string;
  const accountsPage = (await api.get('/api/accounts?limit=1')).body.meta.nextCursor as string;
  cursors = [
    opsPage,
    accountsPage,
    `${opsPage.slice(0, -2)}AA`,
    opsPage.split('.').reverse().join('.'),
    Buffer.from('{"v":1,"k":1}').toString('base64url'),
  ];
  return {
    accounts: [...accounts, funded],
    quotes,
    operations,
    beneficiaries: d.f.beneficiaries.map((b) => b.id),
    ownBeneficiaries: d.f.beneficiaries.filter((b) => b.customerId === d.c1.id).map((b) => b.id),
    instructions: d.f.beneficiaries.flatMap((b) => b.paymentInstructions.map((pi) => pi.id)),
    subscriptions,
    disposableSubscriptions,
    executionLogs,
    quotePairs,
    clients: d.f.customers.map((c) => ({ clientId: c.clientId, clientSecret: c.clientSecret })),
    urls: [
      'http://127.0.0.1:9/hooks',
      'http://localhost:9/x',
      'https://hooks.example.test/fos',
      'http://[::1]:9/y',
      'https://127.0.0.1:1/z',
      'http://10.0.0.1/private',
      'ftp://example.test/',
      'javascript:alert(1)',
    ],
  };
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'];

interface Fuzzed {
  options: SendOptions;
  /** What was sent, for the failure message. */
  summary: string;
}

function requestFor(op: OperationContract): fc.Arbitrary<Fuzzed> {
  const schema = gen.bodySchema(op);
  const valid = schema ? gen.validish(schema) : fc.constant(undefined);
  const body: fc.Arbitrary<unknown> = fc.oneof(
    { weight: schema ? 6 : 12, arbitrary: valid },
    { weight: 5, arbitrary: fc.tuple(valid, mutation).map(([value, m]) => mutate(value ?? {}, m)) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
  );
  // A fuzzed DELETE removes only subscriptions kept for it, so the other operations keep real ids to aim at.
  const poolName = (name: string) =>
    op.operationId === 'deleteSubscription' && name === 'subscriptionId' ? 'disposableSubscriptionId' : name;
  const segment = (name: string) =>
    fc.oneof({ weight: 6, arbitrary: gen.uuid(poolName(name)) }, { weight: 1, arbitrary: mangledSegment(BUGS) });
  const fill = (values: string[]) => op.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, values[i] as string), op.path);
  const independent = fc.tuple(...op.pathParams.map(segment)).map(fill);
  // A log id with its own subscription (resend), so some requests reach the delivery.
  const coherent = op.pathParams.includes('executionLogId')
    ? fc
        .constantFrom(...pools.executionLogs)
        .map((logId) => fill(op.pathParams.map((n) => (n === 'executionLogId' ? logId : pools.subscriptions[0]!))))
    : undefined;
  const path =
    op.pathParams.length === 0
      ? fc.constant(op.path)
      : coherent
        ? fc.oneof({ weight: 2, arbitrary: coherent }, { weight: 1, arbitrary: independent })
        : independent;
  const isList = op.method === 'get' && (!op.path.includes('{') || op.operationId === 'listExecutionLogs');
  const query = fc.oneof(
    { weight: isList ? 1 : 6, arbitrary: fc.constant('') },
    { weight: isList ? 3 : 1, arbitrary: queryString(cursors) },
  );
  const method = fc.oneof(
    { weight: 20, arbitrary: fc.constant(op.method.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
  );
  return fc
    .record({ body, path, query, headers: headerChoice(BUGS), method, key: fc.uuid() })
    .map(({ body: b, path: p, query: q, headers: hc, method: m, key }) => {
      const headers: Record<string, string> = {};
      if (hc.auth === 'valid') headers.authorization = `Bearer ${token}`;
      else if (hc.auth !== 'missing') headers.authorization = hc.auth;
      if (hc.key === 'fresh') headers['x-idempotency-key'] = key;
      else if (hc.key === 'reused') headers['x-idempotency-key'] = REUSED_KEY;
      else if (hc.key !== 'missing') headers['x-idempotency-key'] = hc.key;
      if (hc.version !== undefined) headers['x-service-version'] = hc.version;
      if (hc.contentEncoding !== undefined) headers['content-encoding'] = hc.contentEncoding;
      const hasBody = b !== undefined;
      if (hasBody) headers['content-type'] = hc.contentType;
      const options: SendOptions = { method: m, path: `${p}${q}`, headers, body: hasBody ? b : undefined };
      const shown = typeof b === 'string' || Buffer.isBuffer(b) ? String(b) : JSON.stringify(b);
      const shownHeaders = JSON.stringify({ ...headers, authorization: headers.authorization?.slice(0, 20) }).slice(0, 300);
      const summary = `${m} ${p.slice(0, 200)}${q.slice(0, 300)} ${shownHeaders} body=${(shown ?? '').slice(0, 300)}`;
      // fast-check prints a counterexample with this, not the (possibly 100 KB) value itself.
      return { options, summary, [fc.toStringMethod]: () => summary };
    });
}

/** The documented operation that answers a method and path (a path that lost its id may reach the list). */
function reached(method: string, pathAndQuery: string): OperationContract | undefined {
  const path = pathAndQuery.split('?')[0]!.replace(/(.)\/$/, '$1');
  const candidates = h.mock.contract.operations.filter(
    (o) => o.method === method.toLowerCase() && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  return candidates.find((o) => !o.path.includes('{')) ?? candidates[0];
}

function tally(operationId: string, answer: Answer): void {
  const byStatus = statuses.get(operationId) ?? new Map<number, number>();
  byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
  statuses.set(operationId, byStatus);
}

describe('fuzzing every operation of the document', () => {
  // One test per operation, generated from the document (compiled once, at load time).
  for (const op of contract().operations) {
    it(
      `${op.method.toUpperCase()} ${op.path} (${op.operationId}): never a 5xx, errors are Error bodies, successes match the document`,
      async () => {
        await fc.assert(
          fc.asyncProperty(requestFor(op), async ({ options, summary }) => {
            const answer = await served.send(options);
            requests++;
            tally(op.operationId, answer);
            // A request line and headers over the limit are refused by Node's parser before the app
            // sees them; the mock's server answers that 431 too with the Error body and an X-Request-Id.
            const problems = answerProblems(h.mock.contract, reached(options.method, options.path), answer);
            if (problems.length > 0)
              throw new Error(`${problems.join('; ')}\n  request: ${summary}\n  answer: ${answer.status} ${answer.text.slice(0, 400)}`);
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      },
      20_000 + RUNS * 20,
    );
  }
});

describe('targeted properties', () => {
  it(
    'any owner name and city (any unicode, lone surrogates included) on an editable account: deposits still get a BR Code, never a 5xx',
    async () => {
      const api = client(served, token);
      const accountId = d.editable(d.c1.id).id;
      const text = (max: number) =>
        fc.oneof(
          fc.string({ unit: 'binary', minLength: 1, maxLength: max }),
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }),
          fc.constantFrom('\uD800', '\u202E\u202E', '北京', 'Ærøskøbing', '   ', 'x'.repeat(max)),
        );
      const owner = fc.oneof(
        fc.record({ type: fc.constant('INDIVIDUAL'), firstName: text(100), lastName: text(100), city: text(100) }),
        fc.record({ type: fc.constant('COMPANY'), legalName: text(200), city: text(100) }),
      );
      await fc.assert(
        fc.asyncProperty(owner, async ({ city, ...names }) => {
          const address = { addressLine1: 'Rua A, 1', city, state: 'SP', country: 'BR', postalCode: '01310-100' };
          const identificationDocument =
            names.type === 'COMPANY' ? { type: 'CNPJ', value: '11222333000181' } : { type: 'CPF', value: '39053344705' };
          const patched = await api.patch(`/v1/accounts/${accountId}`, { owner: { ...names, identificationDocument, address } });
          requests++;
          expect(answerProblems(h.mock.contract, h.mock.contract.byId.get('updateAccount'), patched)).toEqual([]);
          expect(patched.status).toBe(200);
          const quote = await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
          const deposit = await api.post('/v1/operations/deposits', {
            accountId,
            quoteId: quote.body.id,
            fundingInstruction: { rail: 'PIX' },
          });
          requests += 2;
          expect(answerProblems(h.mock.contract, h.mock.contract.byId.get('createDeposit'), deposit)).toEqual([]);
          expect(deposit.status).toBe(201);
          expect(deposit.body.intent.fundingInstruction.payload).toMatch(/^[\x20-\x7e]+$/);
        }),
        { numRuns: TARGETED_RUNS, seed: SEED },
      );
    },
    20_000 + TARGETED_RUNS * 100,
  );

  it(
    'any beneficiary entity and PIX key the document accepts: its instruction events are sent, none dropped by the payload check',
    async () => {
      const api = client(served, token);
      const schema = h.mock.contract.document.components.schemas as Record<string, never>;
      const body = gen.validish(schema.BeneficiaryCreate);
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const answer = await api.post('/v1/beneficiaries', value);
          requests++;
          expect(answerProblems(h.mock.contract, h.mock.contract.byId.get('createBeneficiary'), answer)).toEqual([]);
        }),
        { numRuns: TARGETED_RUNS, seed: SEED },
      );
      await h.mock.services.webhooks.idle();
      // A payload that broke the document would have been logged and not sent: the error log stays empty.
      expect(errors.describe()).toEqual([]);
    },
    20_000 + TARGETED_RUNS * 100,
  );
});

describe('the mock itself', () => {
  it('logged no internal error (unhandled error, response or webhook payload breaking the document) while fuzzed', async () => {
    await h.mock.services.webhooks.idle();
    expect(errors.describe()).toEqual([]);
  });
});

describe('inputs that once gave a 500', () => {
  const expectClean = async (options: SendOptions, opId?: string) => {
    const answer = await served.send(options);
    requests++;
    const op = opId ? h.mock.contract.byId.get(opId) : undefined;
    expect(answerProblems(h.mock.contract, op, answer)).toEqual([]);
    return answer;
  };

  it('a malformed percent-escape in a path id is answered 400, not 500', async () => {
    for (const bad of ['%', '%E0%A4%A', '%zz']) {
      const answer = await expectClean(
        { method: 'GET', path: `/v1/quotes/${bad}`, headers: { authorization: `Bearer ${token}` } },
        'getQuote',
      );
      expect(answer.status).toBe(400);
    }
  });

  it('a body that does not decode under its Content-Encoding (gzip, deflate, br) is refused with a 4xx, not a 500', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const answer = await expectClean(
        {
          method: 'POST',
          path: '/v1/quotes',
          headers: {
            authorization: `Bearer ${token}`,
            'x-idempotency-key': '5f2d8c1e-3b4a-4e6f-9a8b-7c6d5e4f3a2b',
            'content-encoding': encoding,
          },
          body: '{}',
        },
        'createQuote',
      );
      expect([400, 415]).toContain(answer.status);
    }
  });

  it('a quote whose computed amount outgrows DecimalString (20 integer digits) is refused with a 4xx, not a 500', async () => {
    const accountId = d.funded(d.c1.id).id;
    const answer = await expectClean(
      {
        method: 'POST',
        path: '/v1/quotes',
        headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' },
        body: { accountId, sourceAsset: 'USDT', targetAsset: 'BRL', sourceAmount: '99999999999999999999.999999' },
      },
      'createQuote',
    );
    expect(answer.status).toBeLessThan(500);
  });
});
