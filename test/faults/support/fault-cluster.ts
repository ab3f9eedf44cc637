// The service a fault run attacks: its own redis-server (test/support/redis-server.ts) and three
// `fos-mock serve --redis <url>` replicas on it (test/support/replicas.ts: real processes, so a
// SIGKILL is a real crash), each with its own client that never hangs (timed-client.ts). Requests
// are spread over the replicas by the run itself (it needs to know which replica a request hit),
// the way a balancer would: a replica the run has killed gets no new requests.
import { performance } from 'node:perf_hooks';
import { startRedisServer, type RedisServer, type RedisServerOptions } from '../../support/redis-server';
import { startReplicas, type Replicas } from '../../support/replicas';
import { expectAnswer, timedClient, type CustomerCalls, type TimedClient } from './timed-client';

export const REPLICAS = 3;

export interface FaultCluster {
  redis: RedisServer;
  replicas: Replicas;
  /** One client per replica, by index. */
  clients: TimedClient[];
  /** Replicas the run has not killed, in index order. */
  live(): number[];
  /** A client of a live replica (the first one), for set-up, control calls and read-backs. */
  any(): TimedClient;
  /** SIGKILL to replica i; when the signal was sent and when the process had exited (performance.now()). */
  kill(i: number): Promise<{ startedAt: number; exitedAt: number }>;
  /** Starts a killed replica again on its port. */
  restart(i: number): Promise<void>;
  /** Replicas the run did not kill that are no longer running (a crash is a finding). */
  crashed(): number[];
  close(): Promise<void>;
}

export interface FaultClusterOptions {
  redis?: RedisServerOptions;
  env: Record<string, string>;
}

export async function startFaultCluster(options: FaultClusterOptions): Promise<FaultCluster> {
  const redis = await startRedisServer(options.redis);
  let replicas: Replicas;
  try {
    replicas = await startReplicas(REPLICAS, { redisUrl: redis.url, env: options.env });
  } catch (error) {
    await redis.stop();
    throw error;
  }
  const clients = replicas.urls.map((url) => timedClient(url));
  const killed = new Set<number>();
  const live = () => clients.map((_, i) => i).filter((i) => !killed.has(i));
  return {
    redis,
    replicas,
    clients,
    live,
    any: () => {
      const first = live()[0];
      if (first === undefined) throw new Error('no live replica left');
      return clients[first]!;
    },
    kill: async (i) => {
      killed.add(i);
      const startedAt = performance.now();
      await replicas.kill(i);
      return { startedAt, exitedAt: performance.now() };
    },
    restart: async (i) => {
      await replicas.start(i);
      killed.delete(i);
    },
    crashed: () => live().filter((i) => !replicas.running(i)),
    close: async () => {
      for (const client of clients) client.close();
      await replicas.stopAll();
      await redis.stop();
    },
  };
}

export interface Customer {
  customerId: string;
  accounts: string[];
  token: string;
  /** The customer's calls through replica i. */
  on(i: number): CustomerCalls;
}

/** A fresh customer (POST /_mock/customers: accounts[1] is funded with BRL and USDT) and its token. */
export async function freshCustomer(cluster: FaultCluster): Promise<Customer> {
  const client = cluster.any();
  const made = (await client.control('POST', '/customers', {})).body;
  const token = expectAnswer(
    await client.call('POST', '/api/oauth/client/token', { body: { clientId: made.clientId, clientSecret: made.clientSecret } }),
    200,
    'token',
  ).body.accessToken as string;
  const calls = cluster.clients.map((c) => c.as(token));
  return { customerId: made.customerId, accounts: made.accounts, token, on: (i) => calls[i]! };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
