// `serve` answers sooner for what it does not load: a mock without REDIS_URL never loads the
// Redis client, and the webhook client, the BR Code library and the regular-expression engine
// wait for their first use (mock/lazy/, mock/store/index.ts `redisParts`). Checked in a fresh
// Node process, whose module cache is Node's own (Jest's registry would not tell).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { projectPath } from '../../spec/project-root';

const DEFERRED = ['ioredis', 'undici', 'pix-utils', 're2js'];

const SCRIPT = `
const { createApp } = require(${JSON.stringify(projectPath('mock', 'app.ts'))});
createApp({ config: { logLevel: 'silent' } }).then(async (app) => {
  const names = Object.keys(require.cache).map((file) => (file.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//) || [])[1]);
  process.stdout.write(JSON.stringify([...new Set(names.filter((name) => ${JSON.stringify(DEFERRED)}.includes(name)))]));
  await app.close();
});`;

describe('what a mock in memory loads at start-up', () => {
  it('a mock without REDIS_URL loads no Redis client, no webhook client, no BR Code library and no regular-expression engine', () => {
    const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', SCRIPT], { cwd: projectPath(), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
