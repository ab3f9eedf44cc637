// Tests that need a real Redis: describeWithRedis starts one redis-server for the describe block
// (beforeAll) and stops it afterwards; tests share it, each under its own key prefix
// (uniquePrefix). Without redis-server the block fails in CI (CI must install it) and is skipped,
// with one line on stderr, on a developer's machine.
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { redisServerPath, startRedisServer, type RedisServer } from './redis-server';

const START_TIMEOUT_MS = 30_000;

function inCI(): boolean {
  const ci = (process.env.CI ?? '').toLowerCase();
  return ci === 'true' || ci === '1';
}

export function describeWithRedis(name: string, body: (redis: () => RedisServer) => void): void {
  if (redisServerPath() === undefined) {
    if (inCI()) {
      describe(name, () => {
        it('has the redis-server it needs (required in CI)', () => {
          throw new Error(
            `${name} needs redis-server, which is required in CI and was not found on PATH or at /usr/bin/redis-server: ` +
              'install it (apt-get install redis-server)',
          );
        });
      });
      return;
    }
    process.stderr.write(`SKIPPED: ${name} needs redis-server (Debian package redis-server); not found on this machine\n`);
    describe.skip(name, () =>
      body(() => {
        throw new Error('redis-server is not installed');
      }),
    );
    return;
  }

  describe(name, () => {
    let server: RedisServer | undefined;
    beforeAll(async () => {
      server = await startRedisServer();
    }, START_TIMEOUT_MS);
    afterAll(async () => {
      await server?.stop();
    });
    body(() => {
      if (!server) throw new Error('redis-server has not started (see the beforeAll failure)');
      return server;
    });
  });
}

let prefixes = 0;

/** A key prefix no other test (nor another jest worker) uses, so tests can share one server. */
export function uniquePrefix(): string {
  return `fos-test:${process.pid}:${randomBytes(3).toString('hex')}:${++prefixes}:`;
}
