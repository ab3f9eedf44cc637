// The validators the build generates ahead of time (ajv standalone code, spec/contract/standalone.ts)
// judge exactly as the ones compiled at run time: same verdicts, same messages, same coercions,
// on every example of the document and on broken copies of each.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_DOCUMENT_PATH, deref, isObject, loadDocument, type JsonObject } from '../../spec/contract/document';
import { schemaKey, NAMED_SCHEMAS } from '../../spec/contract/named-schemas';
import { bodyChecker, buildOperations, type OperationContract } from '../../spec/contract/operations';
import { loadPrecompiled, standalonePath, type PrecompiledModule } from '../../spec/contract/precompiled';
import { generateStandalone } from '../../spec/contract/standalone';
import { createCompiler } from '../../spec/contract/validators';
import { CONTROL_DOCUMENT_PATH } from '../../mock/control/contract';
import { readFixtures } from '../../mock/services/fixtures';
import { projectPath } from '../../spec/project-root';

const REQUEST_ID = { 'x-request-id': '5f0c6f4e-8a9b-4c1d-9e2f-3a4b5c6d7e8f' };
let runtime: OperationContract[];
let precompiled: OperationContract[];
let generated: PrecompiledModule;
/** The control document's, for the named schemas only it has (TimelineEntry). */
let controlGenerated: PrecompiledModule;
let file: string;
let controlFile: string;

/** The example and a few broken copies: an unknown field, a required one gone, a string turned number, an unknown value. */
function variants(example: unknown): unknown[] {
  if (!isObject(example)) return [example, 42, null];
  const keys = Object.keys(example);
  const firstString = keys.find((key) => typeof example[key] === 'string');
  return [
    example,
    { ...example, notInTheDocument: true },
    Object.fromEntries(Object.entries(example).slice(1)),
    firstString ? { ...example, [firstString]: 42 } : example,
    firstString ? { ...example, [firstString]: 'A_VALUE_NOBODY_KNOWS' } : example,
    Array.isArray(example.data) ? { ...example, data: [...example.data, { unexpected: 'item' }] } : example,
  ];
}

function examplesOf(doc: JsonObject, media: JsonObject | undefined): unknown[] {
  if (!media) return [];
  const out: unknown[] = media.example !== undefined ? [media.example] : [];
  for (const example of Object.values(isObject(media.examples) ? media.examples : {}))
    out.push((deref(doc as never, example) as JsonObject).value);
  return out;
}

/** The module the build would generate for a document, written to `file` and loaded. */
function generatedAt(documentPath: string, file: string): PrecompiledModule {
  writeFileSync(file, generateStandalone(documentPath));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the generated CommonJS module under test
  return require(file) as PrecompiledModule;
}

beforeAll(() => {
  const doc = loadDocument(DEFAULT_DOCUMENT_PATH);
  // Where the build writes it (a git-ignored folder), so the module's requires resolve: ajv's runtime
  // from node_modules, and spec/contract/formats.cjs by its path relative to that folder.
  mkdirSync(dirname(standalonePath(DEFAULT_DOCUMENT_PATH)), { recursive: true });
  file = join(dirname(standalonePath(DEFAULT_DOCUMENT_PATH)), `under-test-${process.pid}.js`);
  generated = generatedAt(DEFAULT_DOCUMENT_PATH, file);
  controlFile = join(dirname(standalonePath(CONTROL_DOCUMENT_PATH)), `under-test-control-${process.pid}.js`);
  controlGenerated = generatedAt(CONTROL_DOCUMENT_PATH, controlFile);
  runtime = buildOperations(doc, createCompiler(doc));
  precompiled = buildOperations(doc, createCompiler(doc, generated));
});

afterAll(() => {
  rmSync(file, { force: true });
  rmSync(controlFile, { force: true });
});

describe('validators generated at build time', () => {
  it('carry the document they were generated from, and its hash', () => {
    expect(generated.document).toEqual(loadDocument(DEFAULT_DOCUMENT_PATH));
    expect(generated.documentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(generated.strict).length).toBeGreaterThan(100);
  });

  it('give the same verdict and messages as run-time validators on every response example and its broken copies', () => {
    const doc = generated.document as JsonObject;
    let compared = 0;
    let failing = 0;
    for (const [i, op] of runtime.entries()) {
      const raw = (doc.paths as JsonObject)[op.path] as JsonObject;
      const responses = (raw[op.method] as JsonObject).responses as JsonObject;
      for (const [status, response] of Object.entries(responses)) {
        const media = (deref(doc as never, response) as JsonObject).content as JsonObject | undefined;
        for (const example of examplesOf(doc, media?.['application/json'] as JsonObject | undefined)) {
          for (const value of variants(example)) {
            const numeric = Number(status) || 400;
            const expected = op.checkResponse(numeric, REQUEST_ID, value);
            expect([op.operationId, status, precompiled[i]!.checkResponse(numeric, REQUEST_ID, value)]).toEqual([
              op.operationId,
              status,
              expected,
            ]);
            compared++;
            if (expected.errors.length + expected.drift.length > 0) failing++;
          }
        }
      }
    }
    // The comparison covers passing and failing answers alike.
    expect(compared).toBeGreaterThan(300);
    expect(failing).toBeGreaterThan(100);
  });

  it('coerce and default parameters as run-time validators do, and reject the same bad ones', () => {
    const list = (ops: OperationContract[]) => ops.find((op) => op.operationId === 'listOperations')!;
    for (const query of [
      {},
      { limit: '5' },
      { limit: 'ten' },
      { limit: '0' },
      { limit: '101' },
      { sortOrder: 'SIDEWAYS' },
      { direction: 'NEXT', cursor: 'abc' },
    ]) {
      const parts = { params: {}, query, headers: {}, body: undefined };
      expect(list(precompiled).checkRequest(parts)).toEqual(list(runtime).checkRequest(parts));
    }
  });

  it('hold an open value set to its known values in the same words', () => {
    const quote = (ops: OperationContract[]) => ops.find((op) => op.operationId === 'createQuote')!;
    const parts = {
      params: {},
      query: {},
      headers: { 'x-idempotency-key': 'k' },
      body: { accountId: '5f0c6f4e-8a9b-4c1d-9e2f-3a4b5c6d7e8f', sourceAsset: 'DOGE', targetAsset: 'USDT', sourceAmount: '1.00' },
    };
    const expected = quote(runtime).checkRequest(parts);
    expect(expected.errors.length).toBeGreaterThan(0);
    expect(quote(precompiled).checkRequest(parts)).toEqual(expected);
  });

  it('include the schemas fixtures and snapshots are checked against, judging demo records, examples and broken copies alike', () => {
    const doc = generated.document as JsonObject;
    const demo = readFixtures(projectPath('fixtures', 'demo.json'));
    /** The document's own example of that name, with its broken copies. */
    const example = (name: string) => variants((deref(doc as never, { $ref: `#/components/examples/${name}` }) as JsonObject).value);
    const samples: Record<(typeof NAMED_SCHEMAS)[number], unknown[]> = {
      Account: demo.accounts.flatMap(variants),
      Beneficiary: demo.beneficiaries.flatMap(variants),
      Amount: [
        { value: '0.00', asset: 'BRL', decimals: 2 },
        { value: '0.0', asset: 'EUR', decimals: 1 },
        { value: '0', decimals: -1 },
      ],
      DecimalString: ['5.400000', '0', '-1', 'abc', 5.4],
      ExecutionLog: example('ResentExecutionLog'),
      Operation: [
        'RequestedDepositOperation',
        'RequestedWithdrawalOperation',
        'CompletedSwapOperation',
        'RequestedTransferOperation',
      ].flatMap(example),
      Quote: ['OpenSwapQuote', 'ConsumedDepositQuote'].flatMap(example),
      Subscription: example('OperationSubscription'),
      Reason: variants({ code: 'INSUFFICIENT_BALANCE', message: 'Not enough BRL.' }),
      TimelineEntry: [
        ...variants({ eventType: 'OPERATION_REQUESTED', at: '2026-11-21T12:00:00.000Z', status: 'REQUESTED' }),
        { eventType: 'OPERATION_FAILED', at: '2026-11-21T12:00:05.000Z', status: 'FAILED', reason: { code: 'X', message: 'm' } },
        { eventType: 'OPERATION_FAILED', at: 'yesterday', status: 'FAILED', reason: { code: '' } },
      ],
    };
    const inService = (name: string) => name in ((doc.components as JsonObject).schemas as JsonObject);
    for (const name of NAMED_SCHEMAS) {
      // Each in the document that has it: the service's, else the control API's.
      const module = inService(name) ? generated : controlGenerated;
      const home = module.document as JsonObject;
      expect([name, name in ((home.components as JsonObject).schemas as JsonObject)]).toEqual([name, true]);
      expect([name, typeof module.strict[schemaKey(name)]]).toEqual([name, 'function']);
      const schema = { $ref: `#/components/schemas/${name}` };
      const atRunTime = bodyChecker(createCompiler(home as never), schema, schemaKey(name));
      const built = bodyChecker(createCompiler(home as never, module), schema, schemaKey(name));
      const verdicts = samples[name].map((value) => atRunTime(value));
      expect(samples[name].map((value) => built(value))).toEqual(verdicts);
      // Each schema's samples include values it refuses.
      expect(verdicts.some((v) => v.errors.length + v.drift.length > 0)).toBe(true);
    }
  });

  it('are not used for a document they were not generated from', () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'fos-precompiled-')), 'other.yaml');
    writeFileSync(copy, 'openapi: 3.1.0\n');
    expect(loadPrecompiled(copy)).toBeUndefined();
  });
});
