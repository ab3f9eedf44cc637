// Two replicas on the describe block's Redis, started before its tests and stopped after, with a
// client straight to each.
import { afterAll, beforeAll } from '@jest/globals';
import type { RedisServer } from './redis-server';
import { serviceClient, startReplicas, type Replicas, type ServiceClient } from './replicas';

/** A hang guard for the hooks that start and stop them (each start is awaited under its own guard). */
const START_MS = 300_000;

/**
 * Two replicas started for the describe block, and a client straight to each (a, b). The clients
 * exist only once beforeAll has run: what is returned stands for them in the tests.
 */
export function twoReplicas(redis: () => RedisServer, env: Record<string, string> = {}): [ServiceClient, ServiceClient] {
  let replicas: Replicas | undefined;
  const clients: ServiceClient[] = [];
  beforeAll(async () => {
    replicas = await startReplicas(2, { redisUrl: redis().url, env });
    clients.push(...replicas.urls.map((url) => serviceClient(url)));
  }, START_MS);
  afterAll(async () => {
    for (const client of clients) client.close();
    await replicas?.stopAll();
  }, START_MS);
  const at = (i: number): ServiceClient =>
    new Proxy({} as ServiceClient, { get: (_, name) => (clients[i] as unknown as Record<string | symbol, unknown>)[name] });
  return [at(0), at(1)];
}
