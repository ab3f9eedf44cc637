// Tests that need a real Redis: describeWithRedis starts one redis-server for the describe block
// (beforeAll) and stops it afterwards; tests share it, each under its own key prefix
// (uniquePrefix). Without redis-server the block fails in CI (CI must install it) and is skipped,
// with one line on stderr, on a developer's machine.
import { randomBytes } from 'node:crypto';
import { redisServerPath, startRedisServer, type RedisServer } from './redis-server';
import { describeWithTool } from './required-tool';
import { HANG_GUARD_MS } from './waits';

export function describeWithRedis(name: string, body: (redis: () => RedisServer) => void): void {
  describeWithTool(
    name,
    {
      name: 'redis-server',
      missing: 'not found on PATH or at /usr/bin/redis-server',
      install: 'apt-get install redis-server',
      found: redisServerPath() !== undefined,
      start: () => startRedisServer(),
      stop: (server) => server.stop(),
      // Up to three launches (a port taken meanwhile), each waiting for PING under its own guard.
      startTimeoutMs: 3 * HANG_GUARD_MS,
    },
    body,
  );
}

let prefixes = 0;

/** A key prefix no other test (nor another jest worker) uses, so tests can share one server. */
export function uniquePrefix(): string {
  return `fos-test:${process.pid}:${randomBytes(3).toString('hex')}:${++prefixes}:`;
}
