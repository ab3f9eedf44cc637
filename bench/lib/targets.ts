// The servers the throughput benchmarks compare, and the bench fixture (demo-client with a
// 10-account page, as in the reference figures).
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoFixtures } from '../../fixtures/types';
import { projectPath } from '../../spec/project-root';
import type { ServerSpec } from './processes';
import { tsServer } from './ts-server';

const NODE = process.execPath;
const SECRET = 'bench-secret';

/** demo.json with demo-client's accounts copied up to `count`, written to `dir`. */
export function benchFixtures(dir: string, count = 12): string {
  const fixtures = JSON.parse(readFileSync(projectPath('fixtures', 'demo.json'), 'utf8')) as DemoFixtures;
  const customerId = fixtures.customers[0]!.id;
  const own = fixtures.accounts.filter((a) => a.customer.id === customerId);
  for (let i = own.length; i < count; i++) {
    const copy = { ...structuredClone(own[i % own.length]!), id: randomUUID(), sourceAccountId: null };
    fixtures.accounts.push(copy);
    fixtures.accountReview[copy.id] = 'SUBMITTED';
    for (const asset of ['BRL', 'USDT'])
      fixtures.balances.push({ accountId: copy.id, asset, value: asset === 'BRL' ? '1000000.00' : '1000.000000' });
  }
  const path = join(dir, 'bench-fixtures.json');
  writeFileSync(path, JSON.stringify(fixtures));
  return path;
}

export function fosMock(name: string, port: number, fixtures: string, strict: boolean): ServerSpec {
  return {
    name,
    command: NODE,
    args: [projectPath('bin', 'fos-mock.js'), 'serve', '--port', String(port)],
    env: { FIXTURES: fixtures, STRICT_RESPONSES: strict ? 'on' : 'off', AUTO_SETTLE_MS: 'off', FOS_MOCK_SECRET: SECRET },
    port,
    probe: { path: '/api/accounts', headers: { authorization: 'Bearer x' } },
  };
}

/** fosMock keeping its state in the Redis at `redisUrl` (REDIS_URL): one replica of a Redis-backed mock. */
export function fosMockOnRedis(
  name: string,
  port: number,
  fixtures: string,
  strict: boolean,
  redisUrl: string,
  prefix = 'fos:',
): ServerSpec {
  const spec = fosMock(name, port, fixtures, strict);
  return { ...spec, env: { ...spec.env, REDIS_URL: redisUrl, REDIS_PREFIX: prefix } };
}

export function prism(name: string, port: number, silent: boolean): ServerSpec {
  return {
    name,
    command: NODE,
    args: [
      projectPath('node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'),
      'mock',
      projectPath('spec', 'openapi.yaml'),
      '-p',
      String(port),
      ...(silent ? ['-v', 'silent'] : []),
    ],
    port,
    probe: { path: '/api/accounts', headers: { authorization: 'Bearer x' } },
  };
}

/**
 * Mockoon CLI serving spec/openapi.yaml as shipped (it reads OpenAPI 3.1 itself). It logs every
 * request to stdout and, by default, to a file under ~/.mockoon-cli/logs: HOME is `dir` so that
 * file is written in the bench's temp folder, not the user's home. No flag turns its stdout log off.
 */
export function mockoon(name: string, port: number, dir: string): ServerSpec {
  return {
    name,
    command: NODE,
    args: [
      projectPath('node_modules', '@mockoon', 'cli', 'bin', 'run.js'),
      'start',
      '--data',
      projectPath('spec', 'openapi.yaml'),
      '--port',
      String(port),
    ],
    env: { HOME: dir },
    port,
    probe: { path: '/api/accounts', headers: { authorization: 'Bearer x' } },
  };
}

// One node process each (tsServer), so the memory reported is the server's, not a tsx wrapper's.
export function bareHttp(port: number, pageFile: string): ServerSpec {
  return tsServer({
    name: 'bare node http',
    script: 'bare-http.ts',
    args: [pageFile, String(port)],
    port,
    probe: { path: '/api/accounts' },
  });
}

export function expressJson(port: number, pageFile: string): ServerSpec {
  return tsServer({
    name: 'plain express res.json',
    script: 'express-json.ts',
    args: [pageFile, String(port)],
    port,
    probe: { path: '/api/accounts' },
  });
}

export async function tokenFrom(url: string): Promise<string> {
  const res = await fetch(`${url}/api/oauth/client/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: 'demo-client', clientSecret: 'demo-secret' }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}
