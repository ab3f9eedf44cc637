// The files a team writes in its own project, as the package test writes them into a fresh one:
// a strictly type-checked TypeScript test helper, a CommonJS script and an ES module, each
// making a deposit against its own startMock() and closing it; and the same deposit as one test
// of each test runner, in the module formats the runner takes without configuration.

/** A deposit, end to end: token, an account holding BRL, a quote, the deposit, settled through the control API. */
const depositSteps = (typed: boolean) => `
  const json = async (res${typed ? ': Response' : ''}) => {
    const body = await res.json();
    if (!res.ok) throw new Error(res.status + ' ' + JSON.stringify(body));
    return body;
  };
  const token = await json(await fetch(mock.url + '/api/oauth/client/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: mock.clientId, clientSecret: mock.clientSecret }),
  }));
  const auth = { authorization: 'Bearer ' + token.accessToken, 'content-type': 'application/json' };
  const write = () => ({ ...auth, 'x-idempotency-key': crypto.randomUUID() });
  const accounts = await json(await fetch(mock.url + '/api/accounts?limit=100', { headers: auth }));
  const holds = (a${typed ? ': Account' : ''}, currency${typed ? ': string' : ''}) => a.assets.some((asset) => asset.currency === currency);
  const account = accounts.data.find((a${typed ? ': Account' : ''}) => holds(a, 'BRL') && holds(a, 'USDT'));
  if (!account) throw new Error('no account holding BRL and USDT');
  const quote = await json(await fetch(mock.url + '/v1/quotes', {
    method: 'POST', headers: write(),
    body: JSON.stringify({ accountId: account.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '100.00' }),
  }));
  const deposit = await json(await fetch(mock.url + '/v1/operations/deposits', {
    method: 'POST', headers: write(),
    body: JSON.stringify({ accountId: account.id, quoteId: quote.id, fundingInstruction: { rail: 'PIX' } }),
  }));
  const settled = await mock.control.settle(deposit.id);
  console.log('deposit ' + deposit.currentState.status + ' -> ' + settled.currentState.status);
`;

export const TYPESCRIPT = `import { randomUUID } from 'node:crypto';
import { startMock, type RunningMock } from 'fos-mock';
import type { components } from 'fos-mock/api-types';

type Account = components['schemas']['Account'];
const crypto = { randomUUID };

async function main(): Promise<void> {
  const mock: RunningMock = await startMock({ autoSettleMs: null, clockStart: '2026-01-15T09:00:00Z' });
  try {
${depositSteps(true)}
    const clock = await mock.control.advanceClock('5m');
    console.log('clock ' + clock.now);
  } finally {
    await mock.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`;

export const COMMONJS = `const { randomUUID } = require('node:crypto');
const { startMock } = require('fos-mock');
const crypto = { randomUUID };

(async () => {
  const mock = await startMock({ autoSettleMs: null });
  try {
${depositSteps(false)}
  } finally {
    await mock.close();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

export const ES_MODULE = `import { randomUUID } from 'node:crypto';
import { startMock, ConfigError } from 'fos-mock';
const crypto = { randomUUID };

try {
  await startMock({ port: 'abc' });
  throw new Error('a bad port was accepted');
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.log('refused: ' + error.message);
}
const mock = await startMock({ autoSettleMs: null });
try {
${depositSteps(false)}
} finally {
  await mock.close();
}
`;

/** The deposit as one test of a runner: `head` brings in startMock, test and the assertions; `check` asserts the settled status. */
const runnerTest = (head: string, check: string) => `${head}
test('a deposit against its own startMock() settles', async () => {
  const mock = await startMock({ autoSettleMs: null });
  try {
${depositSteps(false)}
    ${check}
  } finally {
    await mock.close();
  }
});
`;

const REQUIRE_MOCK = `const { randomUUID } = require('node:crypto');
const { startMock } = require('fos-mock');
const crypto = { randomUUID };`;
const IMPORT_MOCK = `import { randomUUID } from 'node:crypto';
import { startMock } from 'fos-mock';
const crypto = { randomUUID };`;
const EXPECT_SETTLED = "expect(settled.currentState.status).toBe('COMPLETED');";
const ASSERT_SETTLED = "assert.equal(settled.currentState.status, 'COMPLETED');";

/** A jest test file as jest's defaults take it: CommonJS, `test` and `expect` as globals. */
export const JEST_COMMONJS = runnerTest(REQUIRE_MOCK, EXPECT_SETTLED);

/** A jest test file for jest's ES module mode: an ES module (its folder's package.json says so). */
export const JEST_ES_MODULE = runnerTest(`import { expect, test } from '@jest/globals';\n${IMPORT_MOCK}`, EXPECT_SETTLED);

/** A vitest test file: an ES module, `test` and `expect` imported (vitest has no globals by default). */
export const VITEST_ES_MODULE = runnerTest(`import { expect, test } from 'vitest';\n${IMPORT_MOCK}`, EXPECT_SETTLED);

/** node:test files, one CommonJS and one ES module. */
export const NODE_TEST_COMMONJS = runnerTest(
  `const test = require('node:test');\nconst assert = require('node:assert/strict');\n${REQUIRE_MOCK}`,
  ASSERT_SETTLED,
);
export const NODE_TEST_ES_MODULE = runnerTest(
  `import test from 'node:test';\nimport assert from 'node:assert/strict';\n${IMPORT_MOCK}`,
  ASSERT_SETTLED,
);

/**
 * Every export of the package, and a type from each of its type entry points, used with their
 * declared types: a team's strict compile of it checks the whole graph of shipped declarations
 * (`--skipLibCheck false`). Compiled as an ES module (.mts) and as CommonJS (.cts); never run.
 */
export const TYPED_EVERY_EXPORT = `import {
  assertVerified,
  ConfigError,
  connectMock,
  ControlClient,
  ControlError,
  CustomerHandle,
  defaultConfig,
  describeVerdict,
  startMock,
  VerificationError,
  verificationMatchers,
  type Config,
  type ConnectOptions,
  type CountExpectation,
  type DeliveryPattern,
  type DeliveryVerdict,
  type JournalFilter,
  type RateLimit,
  type RequestPattern,
  type RequestVerdict,
  type RunningMock,
  type StartMockOptions,
} from 'fos-mock';
import type { components } from 'fos-mock/api-types';
import type { components as Control } from 'fos-mock/control-api-types';

type Account = components['schemas']['Account'];
type Health = Control['schemas']['Health'];

export async function everyExport(options: StartMockOptions, connect: ConnectOptions): Promise<string[]> {
  const config: Config = { ...defaultConfig(), port: 0 };
  const limit: RateLimit | null = config.rateLimit;
  const mock: RunningMock = await startMock({ ...options, autoSettleMs: null });
  const shared: ControlClient = await connectMock(mock.url, connect);
  const alice: CustomerHandle = await shared.customer('alice');
  const count: CountExpectation = { atLeast: 1 };
  const request: RequestPattern = { method: 'POST', path: '/v1/quotes' };
  const requests: RequestVerdict = await assertVerified(alice.verify(request, count));
  const delivery: DeliveryPattern = { eventType: 'OPERATION_COMPLETED' };
  const deliveries: DeliveryVerdict = await alice.deliveries.verify(delivery, { exactly: 0 });
  const filter: JournalFilter = { limit: 5 };
  const journal = await alice.journal(filter);
  const health: Health = await new ControlClient(mock.url).health();
  const account: Account | undefined = undefined;
  const lines = [describeVerdict(requests), describeVerdict(deliveries), String(journal.length), health.status];
  lines.push(String(limit), String(account));
  try {
    await assertVerified(alice.verify({ method: 'DELETE', path: '/v1/quotes' }));
  } catch (error) {
    if (error instanceof VerificationError) lines.push(String(error.verdict.count));
    if (error instanceof ControlError) lines.push(String(error.status));
    if (error instanceof ConfigError) lines.push(error.message);
  }
  lines.push(String(verificationMatchers.toHold(requests).pass));
  await mock.close();
  return lines;
}
`;
